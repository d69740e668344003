"""Prints the first ```mlir fenced block of a Markdown file."""
import sys

text = open(sys.argv[1]).read()
start = text.index("```mlir\n") + len("```mlir\n")
print(text[start:text.index("```", start)])
