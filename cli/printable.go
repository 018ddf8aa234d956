package cli

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// printable returns s with every control character written as a visible
// escape: C0 (including ESC, tab and newline), DEL and C1 become \x1b,
// \n, \u009b and the like, and a byte that is not UTF-8 becomes \xff. mc
// prints it around text that comes from a file (a trace file's property
// doc, actions, names and values; a checkpoint's names), so that a file
// cannot move the cursor, clear the screen, set the window title or break
// a line of mc's layout. Text mc writes itself needs no such care.
func printable(s string) string {
	if !needsEscape(s) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\t':
			b.WriteString(`\t`)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\x%02x`, r)
		case r >= 0x80 && r <= 0x9f:
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

// printableLines is printable for text whose layout has several lines (a
// message naming one problem per line, an SVG or dot document): it keeps
// the newlines and escapes every other control character.
func printableLines(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = printable(l)
	}
	return strings.Join(lines, "\n")
}

// needsEscape says whether s holds anything printable would change.
func needsEscape(s string) bool {
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if (r == utf8.RuneError && size == 1) || r < 0x20 || (r >= 0x7f && r <= 0x9f) {
			return true
		}
		i += size
	}
	return false
}
