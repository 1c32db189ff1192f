#!/usr/bin/env python3
"""Rename LLVM 14's prototype relaxed-SIMD opcodes in a linked WebAssembly module to the standard's.

Debian's Emscripten (clang 14) emits __builtin_wasm_fma_f64x2 as 0xfd 0xcf (the relaxed-simd
prototype's f64x2 fma); engines that ship relaxed SIMD (Chromium 114+, Node 20 with
--experimental-wasm-relaxed-simd) know it as f64x2.relaxed_madd, 0xfd 0x107, with the same
operands (a * b + c). Opcode 0xcf is unassigned in the final SIMD set, and both encodings take two
bytes, so the rename is in place.

The code section is decoded instruction by instruction (not searched for a byte pattern): every
function body must end exactly where its size says, and an instruction this decoder does not
know, or another prototype relaxed opcode, stops the build with an error.

usage: wasm_relaxed_simd.py MODULE.wasm   (rewritten in place; prints how many were renamed)
"""
import sys

PROTO_F64X2_FMA = 0xCF
RELAXED_MADD_F64X2 = 0x107
# LLVM 14's other relaxed-simd prototype opcodes (0xfd prefix): refused, as their final
# encodings and semantics differ.
PROTO_OTHERS = {0xA2, 0xA5, 0xA6, 0xAF, 0xB0, 0xB2, 0xB3, 0xB4, 0xB5, 0xB6, 0xC5, 0xC6, 0xD0,
                0xD2, 0xD3, 0xD4, 0xE2, 0xE3, 0xEE, 0xEF}


class Reader:
    def __init__(self, data, pos, end):
        self.d, self.p, self.end = data, pos, end

    def byte(self):
        if self.p >= self.end:
            raise ValueError("read past the end at %d" % self.p)
        b = self.d[self.p]
        self.p += 1
        return b

    def leb(self, signed):
        result = shift = 0
        while True:
            b = self.byte()
            result |= (b & 0x7F) << shift
            shift += 7
            if not b & 0x80:
                if signed and b & 0x40:
                    result -= 1 << shift
                return result

    def uleb(self):
        return self.leb(False)

    def sleb(self):
        return self.leb(True)

    def skip(self, n):
        if self.p + n > self.end:
            raise ValueError("read past the end at %d" % self.p)
        self.p += n

    def memarg(self):
        self.uleb()
        self.uleb()


def block_type(r):
    b = r.d[r.p]
    if b == 0x40 or b in (0x7F, 0x7E, 0x7D, 0x7C, 0x7B, 0x70, 0x6F):
        r.p += 1
    else:
        r.sleb()


def simd(r, patches):
    start = r.p
    op = r.uleb()
    if op == PROTO_F64X2_FMA:
        if r.p - start != 2:
            raise ValueError("unexpected encoding of 0xfd 0x%x at %d" % (op, start))
        patches.append(start)
    elif op in PROTO_OTHERS:
        raise ValueError("relaxed-simd prototype opcode 0xfd 0x%x at %d: no rename known" %
                         (op, start))
    elif op <= 0x0B or op in (0x5C, 0x5D):
        r.memarg()
    elif op in (0x0C, 0x0D):
        r.skip(16)
    elif 0x15 <= op <= 0x22:
        r.skip(1)
    elif 0x54 <= op <= 0x5B:
        r.memarg()
        r.skip(1)
    elif op > 0xFF:
        raise ValueError("unknown SIMD opcode 0xfd 0x%x at %d" % (op, start))


def misc(r):
    op = r.uleb()
    if op <= 7:
        return
    if op == 8:
        r.uleb(); r.skip(1)
    elif op == 9 or op == 13:
        r.uleb()
    elif op == 10:
        r.skip(2)
    elif op == 11:
        r.skip(1)
    elif op in (12, 14):
        r.uleb(); r.uleb()
    elif op in (15, 16, 17):
        r.uleb()
    else:
        raise ValueError("unknown opcode 0xfc 0x%x" % op)


def atomic(r):
    op = r.uleb()
    if op == 0x03:
        r.skip(1)
    elif op <= 0x02 or 0x10 <= op <= 0x4E:
        r.memarg()
    else:
        raise ValueError("unknown opcode 0xfe 0x%x" % op)


def instructions(r, patches):
    while r.p < r.end:
        op = r.byte()
        if op in (0x02, 0x03, 0x04, 0x06):
            block_type(r)
        elif op in (0x0C, 0x0D, 0x10, 0x07, 0x08, 0x09, 0x18, 0x20, 0x21, 0x22, 0x23, 0x24,
                    0x25, 0x26, 0xD2):
            r.uleb()
        elif op == 0x0E:
            for _ in range(r.uleb() + 1):
                r.uleb()
        elif op == 0x11:
            r.uleb(); r.uleb()
        elif op == 0x1C:
            r.skip(r.uleb())
        elif 0x28 <= op <= 0x3E:
            r.memarg()
        elif op in (0x3F, 0x40):
            r.skip(1)
        elif op == 0x41:
            r.sleb()
        elif op == 0x42:
            r.sleb()
        elif op == 0x43:
            r.skip(4)
        elif op == 0x44:
            r.skip(8)
        elif op == 0xD0:
            r.skip(1)
        elif op == 0xFC:
            misc(r)
        elif op == 0xFD:
            simd(r, patches)
        elif op == 0xFE:
            atomic(r)
        elif op in (0x00, 0x01, 0x05, 0x0B, 0x0F, 0x19, 0x1A, 0x1B, 0xD1) or 0x45 <= op <= 0xC4:
            pass
        else:
            raise ValueError("unknown opcode 0x%x at %d" % (op, r.p - 1))
    if r.d[r.end - 1] != 0x0B:
        raise ValueError("function body does not end with end at %d" % r.end)


def rename(data):
    if data[:8] != b"\0asm\x01\0\0\0":
        raise ValueError("not a WebAssembly module")
    r = Reader(data, 8, len(data))
    patches = []
    functions = 0
    while r.p < len(data):
        section = r.byte()
        size = r.uleb()
        end = r.p + size
        if section == 10:
            body = Reader(data, r.p, end)
            for _ in range(body.uleb()):
                fsize = body.uleb()
                fend = body.p + fsize
                f = Reader(data, body.p, fend)
                for _ in range(f.uleb()):
                    f.uleb(); f.skip(1)
                instructions(f, patches)
                body.p = fend
                functions += 1
            if body.p != end:
                raise ValueError("code section size mismatch")
        r.p = end
    for p in patches:
        data[p:p + 2] = bytes([(RELAXED_MADD_F64X2 & 0x7F) | 0x80, RELAXED_MADD_F64X2 >> 7])
    return len(patches), functions


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    path = sys.argv[1]
    data = bytearray(open(path, "rb").read())
    try:
        n, functions = rename(data)
    except ValueError as e:
        sys.exit("%s: %s" % (path, e))
    open(path, "wb").write(data)
    print("%s: %d f64x2.relaxed_madd in %d functions" % (path, n, functions))


if __name__ == "__main__":
    main()
