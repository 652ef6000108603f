package graph

import (
	"bytes"
	"unicode/utf8"
)

// Lines indexes the lines of a file's content: the byte offset where each line
// starts, 0 first, then the offset after every "\n". Line numbers are 1-based and
// columns count code points from 1, as in Pos.
//
// The one line-ending policy of every parser: a line's text ends before its line
// break, and the break is "\n" or "\r\n". A "\r" just before the "\n" belongs to the
// break, so a file saved with Windows line endings gets the same ranges and columns
// as the same file with "\n" alone. (A lone "\r" is text here; the YAML parser, which
// reads it as a break, turns it into "\n" before indexing.)
type Lines []int

// NewLines indexes data.
func NewLines(data []byte) Lines {
	idx := make(Lines, 1, bytes.Count(data, []byte("\n"))+1)
	for off := 0; ; {
		i := bytes.IndexByte(data[off:], '\n')
		if i < 0 {
			return idx
		}
		off += i + 1
		idx = append(idx, off)
	}
}

// End is the byte offset where the text of line (1-based, within the index) ends:
// before its "\n" or "\r\n", or at the end of data for the last line.
func (ls Lines) End(data []byte, line int) int {
	end := len(data)
	if line < len(ls) {
		end = ls[line] - 1
	}
	if end > ls[line-1] && data[end-1] == '\r' {
		end--
	}
	return end
}

// Range is the range of the text of line in file, without its line break. A line
// outside the index is an empty range at its column 1 (with no byte offset).
func (ls Lines) Range(file string, data []byte, line int) Range {
	if line < 1 || line > len(ls) {
		return Range{File: file, Start: NewPos(line, 1, 0)}
	}
	start, end := ls[line-1], ls.End(data, line)
	return Range{File: file, Start: NewPos(line, 1, start), End: NewPos(line, utf8.RuneCount(data[start:end])+1, end)}
}

// Line is the line (1-based) that holds byte offset off.
func (ls Lines) Line(off int) int {
	lo, hi := 0, len(ls)-1
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if ls[mid] <= off {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return lo + 1
}

// Pos is the position of byte offset off of data.
func (ls Lines) Pos(data []byte, off int) Pos {
	line := ls.Line(off)
	return NewPos(line, utf8.RuneCount(data[ls[line-1]:off])+1, off)
}
