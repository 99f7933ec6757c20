"""The shapes file of tilec-tune: one shape per line, `NAME=VALUE` for each dimension symbol of
the kernel (and each scalar parameter), '#' comments, blank lines ignored (docs/tuning.md,
"Tuning for a new GPU"). Errors are reported as FILE:LINE:COL, as tilec reports its own."""

import re

_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")


class ShapeError(Exception):
    """A located error of the shapes file; str() is the message tilec-tune prints."""


class Shape:
    """One line of the shapes file: its values by name, where each was written, and the line."""

    def __init__(self, path, line):
        self.path = path
        self.line = line
        self.values = {}   # name -> the value's text
        self.columns = {}  # name -> 1-based column of NAME

    def first_column(self):
        """The column of the line's first NAME=VALUE, where errors about the whole line point."""
        return min(self.columns.values())

    def extents(self, symbols):
        """The extents of `symbols` (validated by check_shapes), in their order."""
        return [int(self.values[s]) for s in symbols]

    def text(self, names):
        """'M=4096 N=4096' over `names`, in that order (how the plan and the results name it)."""
        return " ".join(f"{n}={self.values[n]}" for n in names)


def _error(path, line, col, message):
    return ShapeError(f"{path}:{line}:{col}: error: {message}")


def parse_shapes(path, text):
    """The shapes of `text` (the contents of `path`), in file order. Raises ShapeError for a
    token that is not NAME=VALUE, a name given twice on a line, and a file without shapes."""
    shapes = []
    for number, line in enumerate(text.split("\n"), start=1):
        code = line.split("#", 1)[0]
        shape = Shape(path, number)
        for m in re.finditer(r"\S+", code):
            token, col = m.group(0), m.start() + 1
            name, eq, value = token.partition("=")
            if not eq or not _NAME.match(name) or not value:
                raise _error(path, number, col, f"expected NAME=VALUE, found '{token}'")
            if name in shape.values:
                raise _error(path, number, col, f"'{name}' is given twice on this line "
                             f"(first at column {shape.columns[name]})")
            shape.values[name] = value
            shape.columns[name] = col
        if shape.values:
            shapes.append(shape)
    if not shapes:
        raise ShapeError(f"{path}: error: the file has no shapes (one line per shape: M=4096 N=4096 K=4096)")
    return shapes


def check_shapes(shapes, symbols, scalars):
    """Checks every shape against the kernel: each dimension symbol (`symbols`, in order) a
    non-negative integer, each scalar (`scalars`: name -> dtype) a number of its kind, no other
    name, and no two lines with the same extents (they would be one row of the table). Raises
    ShapeError at the first problem."""
    seen = {}
    for s in shapes:
        for name in s.values:
            if name not in symbols and name not in scalars:
                known = " ".join(list(symbols) + list(scalars)) or "none"
                raise _error(s.path, s.line, s.columns[name],
                             f"'{name}' is not a dimension symbol or scalar of the kernel (it has: {known})")
        for name in list(symbols) + list(scalars):
            if name not in s.values:
                what = "dimension symbol" if name in symbols else "scalar parameter"
                raise _error(s.path, s.line, s.first_column(), f"the shape gives no value for the kernel's {what} '{name}'")
        for name in symbols:
            if not re.fullmatch(r"[0-9]+", s.values[name]):
                raise _error(s.path, s.line, s.columns[name] + len(name) + 1,
                             f"the extent of '{name}' must be a non-negative integer, found '{s.values[name]}'")
        for name, dtype in scalars.items():
            if not _scalar_ok(s.values[name], dtype):
                raise _error(s.path, s.line, s.columns[name] + len(name) + 1,
                             f"'{s.values[name]}' is not a value of {name}'s dtype {dtype}")
        key = tuple(s.extents(symbols))
        if key in seen:
            raise _error(s.path, s.line, s.first_column(), f"the same extents as line {seen[key]}: "
                         "a table has one row per shape")
        seen[key] = s.line


def _scalar_ok(text, dtype):
    if dtype == "bool":
        return text in ("0", "1", "true", "false", "True", "False")
    if dtype[0] in "iu":
        return re.fullmatch(r"[+-]?[0-9]+", text) is not None and (dtype[0] == "i" or not text.startswith("-"))
    try:
        float(text)
        return True
    except ValueError:
        return False


def scalar_value(text, dtype):
    """The Python value of a scalar's text, for its ctypes argument."""
    if dtype == "bool":
        return text in ("1", "true", "True")
    if dtype[0] in "iu":
        return int(text)
    return float(text)
