"""Lead, session 14: a copy of a tilec header whose fatbin is replaced (probe builds of hand-
edited PTX).    reimage.py HEADER FATBIN OUT_HEADER"""
import re
import struct
import sys

hdr, fatbin, out = sys.argv[1:4]
text = open(hdr).read()
data = open(fatbin, "rb").read()
size = len(data)
data += b"\0" * (-len(data) % 8)
words = struct.unpack(f"<{len(data) // 8}Q", data)
m = re.search(r"const uint64_t (\w+_image)\[(\d+)\] = \{(.*?)\};", text, re.S)
name, old_n = m.group(1), m.group(2)
old_size = re.search(r"/\* The fatbin \((\d+) bytes\)", text).group(1)
body = "\n" + "".join("  " + ", ".join(hex(w) for w in words[i:i + 8]) + ",\n" for i in range(0, len(words), 8))
text = text[:m.start(3)] + body + text[m.end(3):]
text = text.replace(f"{name}[{old_n}]", f"{name}[{len(words)}]")
text = text.replace(f"{name}, {old_size}}}", f"{name}, {size}}}")
text = text.replace(f"The fatbin ({old_size} bytes)", f"The fatbin ({size} bytes)")
open(out, "w").write(text)
