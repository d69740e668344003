# The lit format of test/Kernels (lit.local.cfg): the folder's .test files,
# plus each-kernel.template run once per kernel of the library, as
# "Kernels/each-kernel/<name>" with %{kernel} replaced by <name>. It lives in
# a module rather than in lit.local.cfg because lit pickles the tests and
# their format for its worker processes.
import os

import lit.Test
import lit.TestRunner
import lit.formats

TEMPLATE = "each-kernel.template"


class KernelTest(lit.Test.Test):
    """A test whose RUN lines come from the template (file_path), not from a
    file at its path in the suite."""

    def getSourcePath(self):
        return self.file_path


class EachKernel(lit.formats.ShTest):
    def __init__(self, kernels, execute_external):
        super().__init__(execute_external)
        self.kernels = kernels

    def getTestsInDirectory(self, testSuite, path_in_suite, litConfig, localConfig):
        yield from super().getTestsInDirectory(
            testSuite, path_in_suite, litConfig, localConfig
        )
        template = os.path.join(testSuite.getSourcePath(path_in_suite), TEMPLATE)
        if not os.path.exists(template):
            return
        for name in self.kernels:
            yield KernelTest(
                testSuite,
                path_in_suite + ("each-kernel", name),
                localConfig,
                file_path=template,
            )

    def execute(self, test, litConfig):
        if not isinstance(test, KernelTest):
            return super().execute(test, litConfig)
        return lit.TestRunner.executeShTest(
            test,
            litConfig,
            self.execute_external,
            [("%{kernel}", test.path_in_suite[-1])],
        )
