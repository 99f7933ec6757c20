"""Prints what the docs say, for tests that compare the docs with each other and with tilec:
  doc_snippets.py make-readme README.md   the Make example of README.md
  doc_snippets.py make-man tilec.1        the Make example of the man page, roff escapes undone
  doc_snippets.py arch-man tilec.1        the archs the man page lists under -arch, one a line
  doc_snippets.py arch-help < help.txt    the archs `tilec --help` lists under --arch
  doc_snippets.py arch-readme README.md   the archs README.md lists after "-arch takes"
  doc_snippets.py option-man tilec.1 NAME the man page's paragraph for option NAME
                                          (--list-passes), roff markup dropped, on one line
  doc_snippets.py docs-man tilec.1        the docs/*.md the man page's SEE ALSO names, one a line
  doc_snippets.py docs-readme README.md   the docs/*.md README.md's Documentation lists
"""
import re
import sys


def make_readme(text):
    block = re.search(r"```make\n(.*?)```", text, re.S)
    return block.group(1)


def make_man(text):
    for block in re.findall(r"^\.EX\n(.*?)^\.EE\n", text, re.S | re.M):
        if "%.h: %.tile" in block:
            return block.replace("\\-", "-")
    raise SystemExit("no Make example in the man page")


def arch_man(text):
    section = re.search(r"^\.BI \\-arch .*?\n(.*?)^\.TP", text, re.S | re.M).group(1)
    listed = section.split("Repeatable")[0]
    return "".join(a + "\n" for a in re.findall(r"^\.BR? (sm_\w+)", listed, re.M))


def arch_help(text):
    line = next(l for l in text.splitlines() if l.strip().startswith("--arch"))
    return "".join(a + "\n" for a in re.findall(r"\bsm_\w+(?=[ ,])", line.split("or newer:")[1].split("(")[0] + " "))


def arch_readme(text):
    sentence = re.search(r"`-arch` takes (.*?) and the newer", text, re.S).group(1)
    return "".join(a + "\n" for a in re.findall(r"`(sm_\w+)`", sentence))


def roff_text(text):
    """Running text of roff source: requests (.B, .BR, ...) dropped, escapes undone."""
    words = []
    for line in text.splitlines():
        if line.startswith("."):
            line = line.split(" ", 1)[1] if " " in line else ""
            line = line.replace('"', "")
        words.append(line.replace("\\-", "-").replace("\\(aq", "'").replace("\\fR", "").replace("\\fP", ""))
    return " ".join(w for w in words if w)


def option_man(text):
    name = sys.argv[3].replace("-", "\\-")
    paragraph = re.search(r"^\.TP\n\.B " + re.escape(name) + r"\n(.*?)^\.(TP|SS|SH)", text, re.S | re.M)
    return roff_text(paragraph.group(1)) + "\n"


def docs_man(text):
    see_also = text.split(".SH SEE ALSO", 1)[1]
    return "".join(d + "\n" for d in re.findall(r"docs/\w+\.md", see_also))


def docs_readme(text):
    section = text.split("## Documentation", 1)[1].split("\n## ", 1)[0]
    return "".join(d + "\n" for d in re.findall(r"`(docs/\w+\.md)`", section))


what = sys.argv[1]
text = open(sys.argv[2]).read() if len(sys.argv) > 2 else sys.stdin.read()
sys.stdout.write({"make-readme": make_readme, "make-man": make_man, "arch-man": arch_man,
                  "arch-help": arch_help, "arch-readme": arch_readme, "option-man": option_man,
                  "docs-man": docs_man, "docs-readme": docs_readme}[what](text))
