"""The exceptions of the hk package.

Every error the package raises is an ``hk.Error``:

* ``CompileError``: the compiler rejected the source; ``diagnostics`` holds
  each located message (``name:line:col: error: ...``).
* ``ArgumentError`` (also a ``ValueError``): a launch's arguments do not fit
  the kernel's metadata, found before anything runs.
* ``HkrtError`` (also a built-in ``RuntimeError``): a call into hkrt, the
  runtime, failed; ``status`` is the hkrt status code (``hk.errors.HKRT_ERROR_*``),
  ``status_name`` the runtime's name for it (``"not found"``, ...), and the
  message is the runtime's.
* ``KernelFault`` (an ``HkrtError``): the ISA simulator caught a kernel bug
  (``HKRT_ERROR_KERNEL_FAULT``), with the simulator's report.
* ``DeviceUnavailable`` (an ``HkrtError``): the requested device cannot be
  opened, or this build of the runtime does not have it.
* ``FileError`` (also an ``OSError``): a file the package was asked to read
  (a source, an artifact) cannot be read; ``errno`` and ``filename`` as
  ``OSError`` has them.
* ``ArtifactFormatError`` (also a ``ValueError``): bytes that are not a valid
  artifact, with the runtime's reason.
* ``KernelNotFound`` (also a ``KeyError``): a module has no kernel of that
  name.
* ``OutOfMemoryError`` (also a ``MemoryError``): the host could not allocate
  the copy of an argument that a launch makes.

``CacheWarning`` (a ``UserWarning``) is warned, once per cache directory,
when the disk cache cannot be written and compiled modules are not cached.
"""

import builtins
import re


class Error(Exception):
    """Base class of every error raised by hk."""


class CompileError(Error):
    """The compiler rejected the source.

    ``diagnostics`` lists the located messages, each starting with
    ``name:line:col:``; ``str()`` is the compiler's whole report.
    """

    _LOCATED = re.compile(r"^(.+?):(\d+):(\d+): (error|warning|note|remark): ")

    def __init__(self, message):
        super().__init__(message)
        self.message = message
        self.diagnostics = [
            line for line in message.splitlines() if self._LOCATED.match(line)
        ]

    def locations(self):
        """(name, line, column) of each located diagnostic."""
        result = []
        for line in self.diagnostics:
            m = self._LOCATED.match(line)
            result.append((m.group(1), int(m.group(2)), int(m.group(3))))
        return result


class ArgumentError(Error, ValueError):
    """A launch's arguments do not match the kernel's metadata."""


class FileError(Error, OSError):
    """A file the package reads cannot be read."""

    def __init__(self, message, errno=None, filename=None):
        super().__init__(message)
        self.errno = errno
        self.filename = filename

    def __str__(self):
        return self.args[0]


def file_error(what, path, error):
    """The FileError for OSError `error` raised while doing `what` to
    `path`."""
    reason = error.strerror or str(error)
    return FileError(f"{what} '{path}': {reason}", error.errno, str(path))


class ArtifactFormatError(Error, ValueError):
    """Bytes that are not a valid artifact (the runtime's reason)."""


class KernelNotFound(Error, KeyError):
    """A module has no kernel of the name asked for."""

    def __str__(self):
        return self.args[0]


class OutOfMemoryError(Error, MemoryError):
    """The host could not allocate a copy a launch needs."""


class CacheWarning(UserWarning):
    """The disk cache cannot be written: modules are compiled uncached."""


# hkrt_status (include/hk/Runtime/hkrt.h).
HKRT_ERROR_INVALID_ARGUMENT = 1
HKRT_ERROR_NOT_FOUND = 2
HKRT_ERROR_INVALID_ARTIFACT = 3
HKRT_ERROR_NO_RUNTIME = 4
HKRT_ERROR_NO_DEVICE = 5
HKRT_ERROR_DEVICE = 6
HKRT_ERROR_OUT_OF_MEMORY = 7
HKRT_ERROR_KERNEL_FAULT = 8
HKRT_ERROR_UNSUPPORTED = 9


# Not called RuntimeError: that name would shadow the built-in in every
# module that imports it by name.
class HkrtError(Error, builtins.RuntimeError):
    """A runtime (hkrt) call failed; ``status`` is its hkrt status code and
    ``status_name`` the runtime's name for it."""

    def __init__(self, message, status=None, status_name=None):
        super().__init__(message)
        self.message = message
        self.status = status
        self.status_name = status_name


class KernelFault(HkrtError):
    """The ISA simulator caught a kernel bug (HKRT_ERROR_KERNEL_FAULT)."""


class DeviceUnavailable(HkrtError):
    """The requested device cannot be opened or is not in this runtime."""
