#!/usr/bin/env python3
"""Lists the C++ functions of the project longer than a limit (100 lines).

A function's length runs from the line of its name to the line of its closing
brace; lambdas and local classes count toward the function that holds them.
The scan matches braces on a token stream with comments, string and character
literals and preprocessor lines removed, and tells function bodies from
namespaces, classes, enums and braced initializers by what precedes each
brace, so it needs no compiler. Generated files live in the build tree, which
is not scanned.

Prints one line per function over the limit, `file:line: function (N lines)`,
and exits 1 if there is any.

  python3 scripts/function-lengths.py [--limit N] [--all] [PATH...]

PATHs (files or directories, relative to the source root) default to the
directories of the project's C and C++.

--all prints every function with its length instead (longest first).
"""

import argparse
import os
import re
import sys

LIMIT = 100
# The project's C and C++, as scripts/format.sh finds it; the HipKittens
# goldens are the translator's output, kept for comparison.
DIRS = ["include", "lib", "tools", "runtime", "unittests", "test", "kernels",
        "fuzz"]
EXCLUDED_DIRS = {"Golden"}
SUFFIXES = (".cpp", ".c", ".h", ".hpp", ".def")

_TOKEN = re.compile(
    r"""
    (?P<ws>[ \t\r\f\v]+)
  | (?P<nl>\n)
  | (?P<comment>//[^\n]*|/\*.*?\*/)
  | (?P<raw>(?:u8|u|U|L)?R"(?P<delim>[^(\s]*)\(.*?\)(?P=delim)")
  | (?P<string>(?:u8|u|U|L)?"(?:\\.|[^"\\\n])*")
  | (?P<char>(?:u8|u|U|L)?'(?:\\.|[^'\\\n])+')
  | (?P<number>\.?[0-9](?:[0-9a-zA-Z_.']|[eEpP][+-])*)
  | (?P<ident>[A-Za-z_][A-Za-z_0-9]*)
  | (?P<op>::|->|.)
    """,
    re.VERBOSE | re.DOTALL,
)


def tokens(text):
    """Yields (kind, text, line) with comments, literals' contents and
    preprocessor lines gone (literals become one placeholder token)."""
    line = 1
    at_line_start = True
    pos = 0
    in_directive = False
    while pos < len(text):
        match = _TOKEN.match(text, pos)
        kind = match.lastgroup
        value = match.group(0)
        pos = match.end()
        newlines = value.count("\n")
        if kind == "nl":
            # A directive ends at a newline not escaped by a backslash.
            if in_directive and not text[: match.start()].endswith("\\"):
                in_directive = False
            at_line_start = True
            line += 1
            continue
        if kind in ("ws", "comment"):
            line += newlines
            continue
        if at_line_start and value == "#":
            in_directive = True
        at_line_start = False
        if not in_directive:
            if kind in ("raw", "string", "char"):
                yield ("literal", '""', line)
            else:
                yield (kind, value, line)
        line += newlines


SCOPE_KEYWORDS = {"namespace", "class", "struct", "union", "enum"}


def strip_template_prefix(head):
    """Drops leading `template <...>` clauses from a declaration's tokens."""
    while len(head) > 1 and head[0][1] == "template" and head[1][1] == "<":
        depth = 0
        for i in range(1, len(head)):
            if head[i][1] == "<":
                depth += 1
            elif head[i][1] == ">":
                depth -= 1
                if depth == 0:
                    head = head[i + 1 :]
                    break
        else:
            return []
    return head


def strip_attributes(head):
    """Drops `__attribute__((...))` and `[[...]]` groups."""
    out = []
    i = 0
    while i < len(head):
        opener = None
        if head[i][1] == "__attribute__" and i + 1 < len(head):
            opener, i = "(", i + 1
        elif head[i][1] == "[" and i + 1 < len(head) and head[i + 1][1] == "[":
            opener = "["
        if opener is None:
            out.append(head[i])
            i += 1
            continue
        closer = ")" if opener == "(" else "]"
        depth = 0
        while i < len(head):
            depth += head[i][1] == opener
            depth -= head[i][1] == closer
            i += 1
            if depth == 0:
                break
    return out


def merge_operator_names(head):
    """Makes `operator` and the symbol after it one identifier token, so that
    `operator=` and `operator()` read as names."""
    out = []
    i = 0
    while i < len(head):
        kind, text, line = head[i]
        if text != "operator" or i + 1 >= len(head):
            out.append(head[i])
            i += 1
            continue
        j = i + 1
        if head[j][1] == "(":  # operator()
            j += 2
        while j < len(head) and head[j][1] != "(":
            j += 1
        name = "operator" + "".join(t[1] for t in head[i + 1 : j])
        if head[i + 1][0] == "ident":  # a conversion: operator bool
            name = "operator " + name[len("operator") :]
        out.append(("ident", name, line))
        i = j
    return out


def classify(head):
    """What a `{` at namespace or class scope opens, from the tokens of the
    declaration before it: ("scope", None), ("function", (name, line)) or
    ("data", None)."""
    head = merge_operator_names(strip_attributes(strip_template_prefix(head)))
    if not head:
        return ("data", None)
    first_paren = next((i for i, t in enumerate(head) if t[1] == "("), None)
    before = head if first_paren is None else head[:first_paren]
    words = {t[1] for t in before}
    if "=" in words:
        return ("data", None)
    if words & SCOPE_KEYWORDS or (head[0][1] == "extern" and len(head) <= 2):
        return ("scope", None)
    if first_paren is None or first_paren == 0:
        return ("data", None)
    return ("function", function_name(head, first_paren))


def function_name(head, paren):
    """The qualified name before the parameter list at `paren`; a macro such
    as TEST(Suite, Name) is named with its arguments."""
    i = paren - 1
    name = head[i][1]
    line = head[i][2]
    if i > 0 and head[i - 1][1] == "~":
        name = "~" + name
        i -= 1
    while i >= 2 and head[i - 1][1] == "::" and head[i - 2][0] == "ident":
        name = head[i - 2][1] + "::" + name
        i -= 2
    if i == 0 and re.fullmatch(r"[A-Z][A-Z0-9_]*", name):
        depth = 0
        args = []
        for _, text, _ in head[paren:]:
            depth += text == "("
            depth -= text == ")"
            if text not in "()" or depth > 1:
                args.append(text)
            if depth == 0:
                break
        name += "(" + " ".join(args).replace(" ,", ",") + ")"
    return name, line


def scan(text):
    """Yields (name, first line, last line) of each function in `text`."""
    stream = iter(tokens(text))
    head = []
    for kind, value, line in stream:
        if value == "{":
            what, name = classify(head)
            if what == "function" and is_member_initializer(head):
                what = "data"
            else:
                head = []
            if what == "scope":
                continue
            depth = 1
            last = line
            for _, inner, last in stream:
                if inner == "{":
                    depth += 1
                elif inner == "}":
                    depth -= 1
                    if depth == 0:
                        break
            if what == "function":
                yield name[0], name[1], last
            else:
                # An initializer's braces belong to a declaration that goes
                # on to its `;`, a further initializer or the body of the
                # constructor whose member it initializes.
                head.append(("data", "{}", last))
            continue
        if value in ("}", ";"):
            head = []
            continue
        if value == ":" and len(head) == 1 and head[0][1] in (
            "public",
            "private",
            "protected",
        ):
            head = []
            continue
        if is_macro_call(head) and line > head[-1][2] and value != "{":
            # A macro expanding to a definition, with no `;` after it.
            head = []
        head.append((kind, value, line))


def is_member_initializer(head):
    """Whether a `{` after `head` initializes a member in a constructor's
    initializer list (`: count(start), step{1} {`) rather than opening the
    body, which follows a `)` or `}`."""
    if head[-1][0] != "ident" and head[-1][1] != ">":
        return False
    depth = 0
    for _, text, _ in head:
        depth += text in "(["
        depth -= text in ")]"
        if depth == 0 and text == ":":
            return True
    return False


def is_macro_call(head):
    """Whether `head` is exactly NAME(...) with NAME in capitals."""
    if len(head) < 3 or head[1][1] != "(" or head[-1][1] != ")":
        return False
    if not re.fullmatch(r"[A-Z][A-Z0-9_]*", head[0][1]):
        return False
    depth = 0
    for i, (_, text, _) in enumerate(head[1:], 1):
        depth += text == "("
        depth -= text == ")"
        if depth == 0:
            return i == len(head) - 1
    return False


def source_files(root, paths):
    for top in paths:
        top = os.path.join(root, top)
        if os.path.isfile(top):
            yield top
            continue
        for dirpath, dirnames, filenames in os.walk(top):
            dirnames[:] = sorted(d for d in dirnames if d not in EXCLUDED_DIRS)
            for filename in sorted(filenames):
                if filename.endswith(SUFFIXES):
                    yield os.path.join(dirpath, filename)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limit", type=int, default=LIMIT)
    parser.add_argument("--all", action="store_true")
    parser.add_argument("paths", nargs="*", default=DIRS)
    args = parser.parse_args()
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

    found = []
    for path in source_files(root, args.paths):
        with open(path, encoding="utf-8", errors="replace") as f:
            text = f.read()
        rel = os.path.relpath(path, root)
        for name, first, last in scan(text):
            found.append((last - first + 1, rel, first, name))

    if args.all:
        for length, rel, first, name in sorted(found, reverse=True):
            print(f"{length:5d} {rel}:{first}: {name}")
        return 0

    failed = 0
    for length, rel, first, name in sorted(found, key=lambda f: f[1:3]):
        if length > args.limit:
            print(f"{rel}:{first}: {name} ({length} lines)")
            failed += 1
    print(f"{len(found)} functions, {failed} over {args.limit} lines")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
