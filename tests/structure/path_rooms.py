#!/usr/bin/env python3
"""Each code path stays in its own room (docs/internals.md, "Code paths"; issue 36).

For every folder src/codegen/paths/<name>/ this collects the path's C++ identifiers: the types
and free functions its headers declare at namespace scope, its namespace (`<name>`), its
enumerator in the paths table (`CodePath::X` of its row in src/codegen/paths/paths.cpp) and the
include of its headers ("codegen/paths/<name>/"). Then it reads every source file under src/
outside that folder and outside the registry (src/codegen/paths/paths.cpp, the rows, and
src/codegen/lowering/path_table.h, their type, which declares each path's CodePath value), with
comments and string and character literals blanked (user-facing names in the warning and option tables,
and docs, are exempt), and fails on any file that names one of them.

  path_rooms.py SRC_DIR                 check; exit 1 and list the uses on a failure
  path_rooms.py SRC_DIR --count         print, per path, how many files outside name it
  path_rooms.py SRC_DIR --names NAME... check these extra identifiers too (for measuring)
"""
import os
import re
import sys

DECL = re.compile(r'^(?:template\s*<[^>]*>\s*)?(?:struct|class|enum\s+class|enum|union)\s+(\w+)')
USING = re.compile(r'^using\s+(\w+)\s*=')
FUNC = re.compile(r'^[A-Za-z_][\w:<>,\s\*&]*?[\s\*&:](\w+)\s*\(')


def strip_code(text):
    """Blanks comments and string/character literals, keeping line numbers."""
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith('//', i):
            j = text.find('\n', i)
            i = n if j < 0 else j
        elif text.startswith('/*', i):
            j = text.find('*/', i + 2)
            j = n if j < 0 else j + 2
            out.append('\n' * text.count('\n', i, j))
            i = j
        elif text.startswith('R"', i):  # raw string R"delim( ... )delim"
            m = re.match(r'R"([^(]*)\(', text[i:])
            end = text.find(')' + m.group(1) + '"', i) if m else -1
            j = n if end < 0 else end + len(m.group(1)) + 2
            out.append('""' + '\n' * text.count('\n', i, j))
            i = j
        elif c in '"\'':
            j = i + 1
            while j < n and text[j] != c and text[j] != '\n':
                j += 2 if text[j] == '\\' else 1
            out.append(c + c)
            i = j + 1
        else:
            out.append(c)
            i += 1
    return ''.join(out)


def declared_names(header_text):
    """Types and free functions a header declares at namespace scope (unindented lines)."""
    names = set()
    for line in strip_code(header_text).split('\n'):
        if not line or line[0] in ' \t#}':
            continue
        for rx in (DECL, USING):
            m = rx.match(line)
            if m:
                names.add(m.group(1))
        if not line.startswith(('namespace', 'return', 'struct', 'class', 'enum', 'using', 'friend')):
            m = FUNC.match(line)
            if m and m.group(1) not in ('operator', 'if', 'for', 'while', 'switch'):
                names.add(m.group(1))
    return names


def path_rooms(src):
    """{name: (folder, identifiers, patterns)} for every folder under src/codegen/paths/."""
    root = os.path.join(src, 'codegen', 'paths')
    table = open(os.path.join(root, 'paths.cpp')).read()
    enumerators = dict((name, enum) for enum, name in re.findall(r'CodePath::(\w+),\s*"(\w+)"', table))
    rooms = {}
    for name in sorted(os.listdir(root)):
        folder = os.path.join(root, name)
        if not os.path.isdir(folder):
            continue
        idents = set()
        for dirpath, _, files in os.walk(folder):
            for f in files:
                if f.endswith('.h'):
                    idents |= declared_names(open(os.path.join(dirpath, f)).read())
        if name in enumerators:
            idents.add(enumerators[name])
        idents.add(name)  # the namespace: tma_wgmma::x, using namespace ...::tma_wgmma
        rooms[name] = (folder, idents, ['"codegen/paths/' + name + '/'])
    return rooms


def sources(src):
    for dirpath, _, files in os.walk(src):
        for f in sorted(files):
            if f.endswith(('.h', '.cpp')):
                yield os.path.join(dirpath, f)


def main():
    args = sys.argv[1:]
    if not args:
        print(__doc__)
        return 2
    src, count = args[0], '--count' in args
    extra = args[args.index('--names') + 1:] if '--names' in args else []
    registry = {os.path.join(src, 'codegen', 'paths', 'paths.cpp'),
                os.path.join(src, 'codegen', 'lowering', 'path_table.h')}
    rooms = path_rooms(src)
    if not rooms:
        print('no path folders under ' + os.path.join(src, 'codegen', 'paths'))
        return 1
    failed = False
    for name, (folder, idents, patterns) in rooms.items():
        idents = idents | set(extra)
        if len(idents) < 5:  # the extraction itself broke: a room always declares more
            print(f'{name}: only {sorted(idents)} found in its headers')
            return 1
        word = re.compile(r'\b(' + '|'.join(sorted(map(re.escape, idents))) + r')\b')
        users = []
        for path in sources(src):
            if path.startswith(folder + os.sep) or path in registry:
                continue
            raw = open(path, errors='replace').read()
            code = strip_code(raw)
            hits = []
            for n, line in enumerate(code.split('\n'), 1):
                found = set(word.findall(line)) | {p for p in patterns if p in line}
                hits += [f'{path}:{n}: {w}' for w in sorted(found)]
            for n, line in enumerate(raw.split('\n'), 1):  # includes are string literals
                if line.startswith('#include') and patterns[0] in line:
                    hits.append(f'{path}:{n}: {line.strip()}')
            if hits:
                users.append((path, hits))
        if count:
            print(f'{name}: {len(users)} files outside src/codegen/paths/{name}/ and the registry name its '
                  f'{len(idents)} identifiers')
            for path, hits in users:
                print(f'  {path} ({len(hits)})')
            continue
        for path, hits in users:
            failed = True
            print('\n'.join(hits))
    if failed:
        print('a code path\'s identifiers or headers are used outside its folder and the paths registry '
              '(src/codegen/paths/paths.cpp and src/codegen/lowering/path_table.h): go through the registry or '
              'PathPlan/PathEmitter instead')
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
