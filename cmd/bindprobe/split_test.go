package main

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestSplitCommand(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		want     []string
		err      string
	}{
		{"words at spaces, tabs and line breaks", "srv  -a\t1\n-b", []string{"srv", "-a", "1", "-b"}, ""},
		{"single quotes keep everything", `'/opt/my server/srv' '-x=$HOME "q" \n'`, []string{"/opt/my server/srv", `-x=$HOME "q" \n`}, ""},
		{"double quotes keep spaces", `srv "a b"`, []string{"srv", "a b"}, ""},
		{"a backslash in double quotes escapes only \\ \" $ and `", `srv "a\"b\\c\$d\` + "`" + `e\nf"`, []string{"srv", `a"b\c$d` + "`" + `e\nf`}, ""},
		{"a backslash outside quotes keeps the next character", `srv a\ b \'c`, []string{"srv", "a b", "'c"}, ""},
		{"quotes join with the word around them", `srv --name='x y'z ""`, []string{"srv", "--name=x yz", ""}, ""},
		{"nothing is expanded, nothing is a pipe", `srv $HOME ~ * | > ;`, []string{"srv", "$HOME", "~", "*", "|", ">", ";"}, ""},
		{"empty", "   ", nil, ""},
		{"an unclosed single quote", `srv 'a`, nil, "a single quote is not closed"},
		{"an unclosed double quote", `srv "a\"`, nil, "a double quote is not closed"},
		{"a last backslash", `srv a\`, nil, "the command ends with a backslash"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := splitCommand(tc.in)
			if tc.err != "" {
				if err == nil || err.Error() != tc.err {
					t.Fatalf("splitCommand(%q) = %q, %v; want error %q", tc.in, got, err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatalf("splitCommand(%q): %v", tc.in, err)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("splitCommand(%q) (-want +got):\n%s", tc.in, diff)
			}
		})
	}
}
