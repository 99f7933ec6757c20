"""The dtypes and expressions that gen.py and its kernel families (gen_shape.py, gen_3d.py)
share: which dtypes a generated kernel uses, and a generated expression's text with its dtype."""

INTS = ["i8", "i16", "i32", "i64", "u8", "u16", "u32", "u64"]
FLOATS = ["f32", "f16", "bf16", "f64"]
# The dtypes an elementwise leaf, a reduction's input or a gathered array takes, with weights:
# the 8-, 32-bit and 16-bit float dtypes most, since they lower in the most ways (vectorized
# loads, packed conversions); the 16- and 64-bit integers and f64 still in every campaign.
DTYPE_WEIGHTS = [("i8", 2), ("i16", 1), ("i32", 2), ("i64", 1.5), ("u8", 2), ("u16", 1), ("u32", 1), ("u64", 1),
                 ("f32", 2.5), ("f16", 2.5), ("bf16", 2), ("f64", 1.5), ("bool", 1.5)]
# bitcast's partners: the dtypes of each width (language.md §7.5; bool has none).
SAME_WIDTH = {1: ["i8", "u8"], 2: ["i16", "u16", "f16", "bf16"], 4: ["i32", "u32", "f32"], 8: ["i64", "u64", "f64"]}


def is_float(d):
    return d in FLOATS


def is_int(d):
    return d in INTS


def width(d):
    """Bytes per element."""
    return next(w for w, ds in SAME_WIDTH.items() if d in ds) if d != "bool" else 1


class Expr:
    """A generated expression: its text and dtype (all tiles of one kernel share a shape)."""

    def __init__(self, text, dtype):
        self.text = text
        self.dtype = dtype


def paren(t):
    return t if t.isidentifier() or (t.startswith("(") and t.endswith(")")) else f"({t})"
