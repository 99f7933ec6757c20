"""Lists the images of a fatbin, one a line: "sass sm_90a", "sass sm_80", "ptx sm_80", in the
order the fatbin holds them. Reads a .fatbin, or a tilec header (the words of its
`<name>_tilec_<config>_image` array, the fatbin's bytes as little-endian 64-bit words).

    fatbin_images.py FILE

The layout, as fatbinary 13.0 writes it (nvcc's fatbins; not documented by NVIDIA, checked by
bundling known cubins and PTX with `fatbinary --image3=kind=elf|ptx,sm=NN`): a 16-byte header
(u32 magic 0xBA55ED50, u16 version, u16 header size, u64 size of the entries that follow), then
per image an entry header (u16 kind: 1 PTX, 2 ELF; u16 version; u32 header size; u64 payload
size; ...; at byte 28 the u32 SM number, 90 for sm_90 and sm_90a; at byte 40 u32 flags, where
0x100000 marks an arch-specific `a` image) followed by its payload.
"""
import re
import struct
import sys

MAGIC = 0xBA55ED50
ARCH_SPECIFIC = 0x100000


def fatbin_bytes(path):
    data = open(path, "rb").read()
    if struct.unpack_from("<I", data, 0)[0] == MAGIC:
        return data
    text = data.decode()
    words = re.search(r"_tilec_[0-9a-f]{12}_image\[\d+\] = \{(.*?)\};", text, re.S)
    if not words:
        raise SystemExit(f"{path}: neither a fatbin nor a tilec header")
    return b"".join(struct.pack("<Q", int(w, 0)) for w in words.group(1).replace("\n", " ").split(",") if w.strip())


def images(data):
    magic, _, header, size = struct.unpack_from("<IHHQ", data, 0)
    if magic != MAGIC:
        raise SystemExit("not a fatbin (magic %#x)" % magic)
    out, off = [], header
    while off < header + size:
        kind, _, entry_header, payload = struct.unpack_from("<HHIQ", data, off)
        sm, = struct.unpack_from("<I", data, off + 28)
        flags, = struct.unpack_from("<I", data, off + 40)
        name = {1: "ptx", 2: "sass"}.get(kind, f"kind{kind}")
        out.append(f"{name} sm_{sm}{'a' if flags & ARCH_SPECIFIC else ''}")
        off += entry_header + payload
    return out


print("\n".join(images(fatbin_bytes(sys.argv[1]))))
