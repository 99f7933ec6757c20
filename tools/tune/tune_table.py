"""The tuning table text that tilec-tune writes (docs/tuning.md "The tuning table"; the same
text as tilec's write_tuning_table, src/codegen/header/tuning_table.h) and, for --append, the
sections of an existing table, which tilec parses in full when it embeds the table."""

from tune_header import ToolError


def quoted(s):
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _line(text, comment):
    return f"{text}  # {comment}\n" if comment else text + "\n"


def render(kernel, sections):
    """The table of `kernel` (a tune_header.Kernel): its header lines, its configurations, then
    `sections`, each (GPU name, cc as major * 10 + minor, SMs, comment, [(row text, comment)])."""
    out = ["tilec-tuning 1\n", f"kernel {kernel.name}\n", f"space {kernel.space}\n",
           "symbols" + "".join(" " + s for s in kernel.symbols) + "\n"]
    out += [f"config {i} {quoted(label)}\n" for i, label in kernel.configs]
    for name, cc, sms, comment, rows in sections:
        out.append("\n" + _line(f"gpu {quoted(name)} cc {cc // 10}.{cc % 10} sms {sms}", comment))
        out += [_line(text, c) for text, c in rows]
    return "".join(out)


def _tokens(line):
    """The words and strings of a line (strings keep their quotes, unescaped inside) and its
    comment, as tilec's lexer splits them."""
    tokens, i = [], 0
    while i < len(line):
        c = line[i]
        if c in " \t\r":
            i += 1
        elif c == "#":
            return tokens, line[i + 1:].strip(" \t\r"), i
        elif c == '"':
            j, text = i + 1, ""
            while j < len(line) and line[j] != '"':
                if line[j] == "\\" and j + 1 < len(line):
                    j += 1
                text += line[j]
                j += 1
            tokens.append(('"', text, i + 1))
            i = j + 1
        else:
            j = i
            while j < len(line) and line[j] not in ' \t\r"#':
                j += 1
            tokens.append(("w", line[i:j], i + 1))
            i = j
    return tokens, "", len(line)


def existing_sections(path, kernel):
    """The sections of the table at `path` for --append, as render() takes them; the table must
    be this kernel's (kernel, space and symbols). Raises ToolError with the table's line."""
    try:
        with open(path) as f:
            lines = f.read().split("\n")
    except OSError as e:
        raise ToolError(f"cannot read '{path}' to append to it: {e.strerror}") from e
    sections = []
    want = {"kernel": kernel.name, "space": kernel.space, "symbols": " ".join(kernel.symbols)}
    for number, line in enumerate(lines, start=1):
        tokens, comment, _ = _tokens(line)
        if not tokens:
            continue
        kind, first, col = tokens[0]
        words = " ".join(t[1] for t in tokens[1:])
        if kind == "w" and first in want and words != want[first]:
            raise ToolError(f"{path}:{number}:{col}: error: the table was made for {first} '{words}'; this build "
                            f"has {first} '{want[first]}' (tune it again without --append)")
        if kind == "w" and first == "gpu" and len(tokens) == 6:
            sections.append((tokens[1][1], _cc(tokens[3][1]), int(tokens[5][1]), comment, []))
        elif kind == "w" and first[:1].isdigit() and sections:
            sections[-1][4].append((" ".join(t[1] for t in tokens), comment))
        elif kind == "w" and first == "tilec-tuning" and words != "1":
            raise ToolError(f"{path}:{number}:{col}: error: tuning table version {words} is not supported")
    return sections


def _cc(text):
    major, _, minor = text.partition(".")
    return int(major) * 10 + int(minor)


def merge(sections, section):
    """`sections` with `section` merged into the one of its GPU (by name): its gpu line and its
    rows replace the old ones with the same extents, the old section's other rows stay (so a
    GPU's table grows by the shapes of each run); a GPU not there yet is added at the end."""
    def extents(row):
        return row[0].rsplit(" ", 1)[0]
    at = next((i for i, s in enumerate(sections) if s[0] == section[0]), None)
    if at is None:
        return sections + [section]
    new = {extents(r) for r in section[4]}
    kept = [r for r in sections[at][4] if extents(r) not in new]
    out = list(sections)
    out[at] = tuple(section[:4]) + (kept + list(section[4]),)
    return out
