# The lit format of test/Kernels (lit.local.cfg): the folder's .test files,
# plus each-kernel.template run once per kernel of the library, as
# "Kernels/each-kernel/<name>" with %{kernel} replaced by <name>. A test's
# lit features include "kernel-on-<chip>" for every chip the kernel supports
# (its chips.txt, else every chip of the table), for the templates' RUN lines
# of one chip (%if kernel-on-gfx942 %{ ... %}); %{kernel_chips} is the list,
# comma-separated, in the chip table's order. It lives in a module rather
# than in lit.local.cfg because lit pickles the tests and their format for
# its worker processes.
import copy
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


def kernel_config(config, chips):
    """`config` with the features of a kernel that runs on `chips`."""
    own = copy.copy(config)
    own.available_features = set(config.available_features) | {
        "kernel-on-" + chip for chip in chips}
    return own


class EachKernel(lit.formats.ShTest):
    def __init__(self, kernels, kernel_chips, kernels_dir, execute_external):
        super().__init__(execute_external)
        self.kernels = kernels
        self.kernel_chips = kernel_chips
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
                    kernel_config(localConfig, self.kernel_chips[name]),
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
        name = test.path_in_suite[-1]
        return lit.TestRunner.executeShTest(
            test,
            litConfig,
            self.execute_external,
            [("%{kernel}", name),
             ("%{kernel_chips}", ",".join(self.kernel_chips[name]))],
        )
