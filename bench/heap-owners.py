#!/usr/bin/env python3
"""Which objects hold a heap dump's primitive arrays: bytes and count of byte[] (or char[]) arrays per class of the
object (or object array) that refers to them. Made to find per-connection buffers (bench/hold.sh HOLD_DUMP=1).

    bench/heap-owners.py DUMP.hprof [byte|char]

Reads HPROF 1.0.2 with 8-byte ids (a 64-bit JVM's jmap -dump); each array is counted once, for the first holder met.
"""
import collections
import struct
import sys

SIZES = {2: 8, 4: 1, 5: 2, 6: 4, 7: 8, 8: 1, 9: 2, 10: 4, 11: 8}  # HPROF basic types: 2 = object id


def main(path, kind):
    want = {'byte': 8, 'char': 5}[kind]
    data = open(path, 'rb').read()
    u2 = lambda o: struct.unpack_from('>H', data, o)[0]
    u4 = lambda o: struct.unpack_from('>I', data, o)[0]
    u8 = lambda o: struct.unpack_from('>Q', data, o)[0]
    p = data.index(b'\0') + 1
    if u4(p) != 8:
        sys.exit('only 8-byte ids are read')
    p += 4 + 8
    strings, class_names, classes = {}, {}, {}
    arrays, instances, object_arrays = {}, [], []
    while p < len(data):
        tag, length = data[p], u4(p + 5)
        body, end = p + 9, p + 9 + length
        if tag == 0x01:  # UTF8
            strings[u8(body)] = data[body + 8:end].decode('utf-8', 'replace')
        elif tag == 0x02:  # LOAD CLASS
            class_names[u8(body + 4)] = u8(body + 16)
        elif tag in (0x0C, 0x1C):  # HEAP DUMP (SEGMENT)
            q = body
            while q < end:
                sub = data[q]
                q += 1
                if sub in (0xFF, 0x05, 0x07):
                    q += 8
                elif sub in (0x01, 0x02, 0x03, 0x08):
                    q += 16
                elif sub in (0x04, 0x06):
                    q += 12
                elif sub == 0x20:  # CLASS DUMP: keep the superclass and the instance fields' types
                    cid, superclass = u8(q), u8(q + 12)
                    q += 8 + 4 + 8 * 6 + 4
                    count = u2(q)
                    q += 2
                    for _ in range(count):
                        q += 3 + SIZES[data[q + 2]]
                    count = u2(q)
                    q += 2
                    for _ in range(count):
                        q += 9 + SIZES[data[q + 8]]
                    count = u2(q)
                    q += 2
                    fields = [data[q + 9 * i + 8] for i in range(count)]
                    q += 9 * count
                    classes[cid] = (superclass, fields)
                elif sub == 0x21:  # INSTANCE DUMP
                    size = u4(q + 20)
                    instances.append((u8(q + 12), q + 24))
                    q += 24 + size
                elif sub == 0x22:  # OBJECT ARRAY DUMP
                    count = u4(q + 12)
                    object_arrays.append((u8(q + 16), q + 24, count))
                    q += 24 + 8 * count
                elif sub == 0x23:  # PRIMITIVE ARRAY DUMP
                    count, element = u4(q + 12), data[q + 16]
                    if element == want:
                        arrays[u8(q)] = count * SIZES[element]
                    q += 17 + count * SIZES[element]
                else:
                    sys.exit('unknown heap dump record 0x%x' % sub)
        p = end

    name = lambda cid: strings.get(class_names.get(cid, 0), hex(cid))
    layouts = {}

    def layout(cid):
        if cid not in layouts:
            fields, c = [], cid
            while c in classes:
                superclass, own = classes[c]
                fields.extend(own)
                c = superclass
            layouts[cid] = fields
        return layouts[cid]

    held_bytes, held_count, seen = collections.Counter(), collections.Counter(), set()

    def hold(owner, ref):
        if ref in arrays and ref not in seen:
            seen.add(ref)
            held_bytes[owner] += arrays[ref]
            held_count[owner] += 1

    for cid, offset in instances:
        for field in layout(cid):
            if field == 2:
                hold(name(cid), u8(offset))
            offset += SIZES[field]
    for cid, offset, count in object_arrays:
        for i in range(count):
            hold(name(cid), u8(offset + 8 * i))
    print('%s[]: %d arrays, %d bytes' % (kind, len(arrays), sum(arrays.values())))
    for owner, size in held_bytes.most_common(20):
        print('%12d bytes %8d arrays  %s' % (size, held_count[owner], owner))


if __name__ == '__main__':
    main(sys.argv[1], sys.argv[2] if len(sys.argv) > 2 else 'byte')
