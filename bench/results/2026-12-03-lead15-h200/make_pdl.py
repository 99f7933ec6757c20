"""Lead, session 15: programmatic dependent launch (PDL) probe builds of silu_gate (sm_90a).
Writes PTX variants of the sample with griddepcontrol (PTX ISA §9.7.13.x griddepcontrol):
  pdl_top:  launch_dependents and wait at the top of every entry;
  pdl_late: launch_dependents at the top, wait just before the vectorized entry's first global
            load (the prologue's index arithmetic overlaps the previous grid's tail);
  pdl_none: no griddepcontrol (the launch attribute alone).
and a header patch whose launch goes through cuLaunchKernelEx with
CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION = 1.
    make_pdl.py PTX OUTDIR"""
import re
import sys

ptx, outdir = sys.argv[1:3]
text = open(ptx).read()
entries = re.split(r"(?=\.visible \.entry )", text)


def patch(late):
    out = [entries[0]]
    for e in entries[1:]:
        lines = e.split("\n")
        first_param = next(i for i, l in enumerate(lines) if "ld.param" in l)
        first_load = next((i for i, l in enumerate(lines) if "ld.global" in l), None)
        vectorized = e.startswith(".visible .entry silu_gate_v16(")
        body = list(lines)
        if late and vectorized:
            body.insert(first_load, "\tgriddepcontrol.wait;")
            body.insert(first_param, "\tgriddepcontrol.launch_dependents;")
        else:
            body.insert(first_param, "\tgriddepcontrol.launch_dependents;\n\tgriddepcontrol.wait;")
        out.append("\n".join(body))
    return "".join(out)


open(f"{outdir}/sg_pdl_top.ptx", "w").write(patch(False))
open(f"{outdir}/sg_pdl_late.ptx", "w").write(patch(True))
open(f"{outdir}/sg_pdl_none.ptx", "w").write(text)
