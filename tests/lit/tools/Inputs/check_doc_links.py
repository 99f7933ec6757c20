"""Checks that the user documentation stays inside the repository: every relative Markdown link
of README.md and docs/*.md names a file or folder of the repository, and no page points into
the project's private design notes (`shared/design/...`), which a user of the repository lacks.

    check_doc_links.py SRCROOT
"""
import os
import re
import sys

root = os.path.realpath(sys.argv[1])
pages = [os.path.join(root, "README.md")] + sorted(
    os.path.join(root, "docs", f) for f in os.listdir(os.path.join(root, "docs")) if f.endswith(".md"))
problems = []
for page in pages:
    text = open(page, encoding="utf-8").read()
    rel = os.path.relpath(page, root)
    # Links outside code: fenced blocks and `code spans` blanked, newlines kept for line numbers.
    prose = re.sub(r"```.*?```|`[^`\n]*`", lambda c: re.sub(r"[^\n]", " ", c.group(0)), text, flags=re.S)
    for m in re.finditer(r"\]\(([^)\s]+)\)", prose):
        target = m.group(1).split("#")[0]
        if not target or re.match(r"[a-z]+:", target):
            continue  # an anchor in the page, or a URL
        path = os.path.realpath(os.path.join(os.path.dirname(page), target))
        line = text.count("\n", 0, m.start()) + 1
        if not path.startswith(root + os.sep) or not os.path.exists(path):
            problems.append(f"{rel}:{line}: link to '{m.group(1)}' leaves the repository or names nothing")
    for m in re.finditer(r"shared/design/", text):
        line = text.count("\n", 0, m.start()) + 1
        problems.append(f"{rel}:{line}: refers to shared/design/, which is not in the repository")
for p in problems:
    print(p)
print(f"{len(pages)} pages, {len(problems)} problems")
sys.exit(1 if problems else 0)
