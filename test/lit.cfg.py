# -*- Python -*-
import os

import lit.formats
from lit.llvm import llvm_config
from lit.llvm.subst import ToolSubst

config.name = "HK"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".test"]
config.excludes = ["Inputs", "CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.hk_obj_root, "test")

config.substitutions.append(("%hk_src_root", config.hk_src_root))
config.substitutions.append(("%hk_obj_root", config.hk_obj_root))
config.substitutions.append(("%cmake", config.cmake))
config.substitutions.append(("%pkg_config", config.pkg_config))
config.substitutions.append(("%llvm_tools_dir", config.llvm_tools_dir))
config.substitutions.append(("%hk_python", config.hk_python))
# %kernels/NAME/NAME.mlir is a kernel's tile program; %{kernel_names} lists
# the kernels the build found, in byte order (test/Kernels/lit.local.cfg
# makes one test of each).
config.substitutions.append(("%kernels", os.path.join(config.hk_src_root, "kernels")))
config.substitutions.append(("%{kernel_names}", " ".join(config.hk_kernels)))

llvm_config.use_default_substitutions()
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)
llvm_config.add_tool_substitutions(
    [ToolSubst("hk-opt", unresolved="fatal"),
     ToolSubst("hk-translate", unresolved="fatal"),
     ToolSubst("hkc", unresolved="fatal")], [config.hk_tools_dir])
