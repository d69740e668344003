# The lit format of test/Kernels (lit.local.cfg): the folder's .test files,
# plus each-kernel.template run once per kernel of the library, as
# "Kernels/each-kernel/<name>" with %{kernel} replaced by <name>. It lives in
# a module rather than in lit.local.cfg because lit pickles the tests and
# their format for its worker processes.
import os

import lit.Test
import lit.TestRunner
import lit.formats

# Template -> test folder. A kernel directory with ISA_GAP in it expects
# each-kernel-isa to fail (XFAIL).
TEMPLATES = (("each-kernel.template", "each-kernel"),
             ("each-kernel-isa.template", "each-kernel-isa"))
ISA_GAP = "isa-gap.txt"


class KernelTest(lit.Test.Test):
    """A test whose RUN lines come from the template (file_path), not from a
    file at its path in the suite."""

    def getSourcePath(self):
        return self.file_path


class EachKernel(lit.formats.ShTest):
    def __init__(self, kernels, kernels_dir, execute_external):
        super().__init__(execute_external)
        self.kernels = kernels
        self.kernels_dir = kernels_dir

    def getTestsInDirectory(self, testSuite, path_in_suite, litConfig, localConfig):
        yield from super().getTestsInDirectory(
            testSuite, path_in_suite, litConfig, localConfig
        )
        for template_name, folder in TEMPLATES:
            template = os.path.join(
                testSuite.getSourcePath(path_in_suite), template_name
            )
            if not os.path.exists(template):
                continue
            for name in self.kernels:
                test = KernelTest(
                    testSuite,
                    path_in_suite + (folder, name),
                    localConfig,
                    file_path=template,
                )
                if folder == "each-kernel-isa" and os.path.exists(
                    os.path.join(self.kernels_dir, name, ISA_GAP)
                ):
                    test.xfails = ["*"]
                yield test

    def execute(self, test, litConfig):
        if not isinstance(test, KernelTest):
            return super().execute(test, litConfig)
        return lit.TestRunner.executeShTest(
            test,
            litConfig,
            self.execute_external,
            [("%{kernel}", test.path_in_suite[-1])],
        )
