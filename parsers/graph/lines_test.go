package graph

import "testing"

// TestLines: a file with "\r\n" line endings gets the ranges and columns of the same
// file with "\n", and positions come back from byte offsets.
func TestLines(t *testing.T) {
	lf := []byte("a: 1\nbé: 22\n\nlast")
	crlf := []byte("a: 1\r\nbé: 22\r\n\r\nlast")
	for _, data := range [][]byte{lf, crlf} {
		ls := NewLines(data)
		if len(ls) != 4 {
			t.Fatalf("%q: %d lines, want 4", data, len(ls))
		}
		for line, wantEnd := range map[int]int32{1: 5, 2: 7, 3: 1, 4: 5} {
			r := ls.Range("f", data, line)
			if r.Start.Line != int32(line) || r.Start.Column != 1 || r.End.Column != wantEnd || r.End.Line != int32(line) {
				t.Errorf("%q line %d: range %v, want columns 1-%d", data, line, r, wantEnd)
			}
			if got := string(data[r.Start.Byte:r.End.Byte]); got != map[int]string{1: "a: 1", 2: "bé: 22", 3: "", 4: "last"}[line] {
				t.Errorf("%q line %d: text %q", data, line, got)
			}
		}
		if r := ls.Range("f", data, 9); r.Start.Line != 9 || r.End.IsValid() {
			t.Errorf("line past the end: %v", r)
		}
		for off := range data {
			p := ls.Pos(data, off)
			if int(p.Byte) != off || p.Line < 1 || int(p.Line) > len(ls) || ls[p.Line-1] > off {
				t.Errorf("%q offset %d: position %+v", data, off, p)
			}
		}
		second := ls[1] + len("bé")
		if p := ls.Pos(data, second); p.Line != 2 || p.Column != 3 {
			t.Errorf("%q: position after bé %+v, want 2:3", data, p)
		}
	}
}
