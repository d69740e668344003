# The lit format of test/Target/HipKittens/Compile (lit.local.cfg): the
# folder's own tests, plus translation.template run once per kernel of the
# library and HipKittens tree, as "Compile/<kernel>/<chip>", with %{kernel}
# and %{chip} (the chip whose tree the translation is for) replaced. A module
# rather than lit.local.cfg because lit pickles the tests and their format for its
# worker processes.
import os

import lit.Test
import lit.TestRunner
import lit.formats

TEMPLATE = "translation.template"
# A kernel whose ops HipKittens has no call for holds, in its directory, the
# FileCheck lines of the located error the translation must give for it;
# refusal.template checks that error instead of compiling.
REFUSAL = "hipkittens-refusal.txt"
REFUSAL_TEMPLATE = "refusal.template"


class TranslationTest(lit.Test.Test):
    """A test whose RUN lines come from the template (file_path)."""

    def getSourcePath(self):
        return self.file_path


class EachTranslation(lit.formats.ShTest):
    def __init__(self, kernels, chips, execute_external):
        super().__init__(execute_external)
        self.kernels = kernels
        # The chips of the table with a HipKittens tree: the translation's
        # --chip picks the tree.
        self.chips = chips

    def getTestsInDirectory(self, testSuite, path_in_suite, litConfig, localConfig):
        yield from super().getTestsInDirectory(
            testSuite, path_in_suite, litConfig, localConfig
        )
        template = os.path.join(testSuite.getSourcePath(path_in_suite), TEMPLATE)
        if not os.path.exists(template):
            return
        for name, directory, kernel_chips in self.kernels:
            refused = os.path.exists(os.path.join(directory, REFUSAL))
            for chip in (c for c in self.chips if c in kernel_chips):
                yield TranslationTest(
                    testSuite,
                    path_in_suite + (name, chip),
                    localConfig,
                    file_path=os.path.join(
                        os.path.dirname(template), REFUSAL_TEMPLATE
                    )
                    if refused
                    else template,
                )

    def execute(self, test, litConfig):
        if not isinstance(test, TranslationTest):
            return super().execute(test, litConfig)
        name, chip = test.path_in_suite[-2:]
        return lit.TestRunner.executeShTest(
            test,
            litConfig,
            self.execute_external,
            [("%{kernel}", name), ("%{chip}", chip)],
        )
