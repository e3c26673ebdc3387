package main

import (
	"errors"
	"strings"
)

// splitCommand splits the -server command into words as a shell would,
// without a shell: words are separated by unquoted spaces, tabs and line
// breaks; single quotes keep everything up to the next single quote as it
// is; double quotes keep everything up to the next unescaped double quote,
// where a backslash escapes only \, " and $ and ` (and is kept before
// anything else); outside quotes a backslash keeps the next character as it
// is. There is no expansion of any kind ($HOME, ~, *), no redirection and
// no pipes: those characters are part of words.
func splitCommand(s string) ([]string, error) {
	var (
		words  []string
		word   strings.Builder
		inWord bool
	)
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			if inWord {
				words = append(words, word.String())
				word.Reset()
				inWord = false
			}
		case c == '\\':
			inWord = true
			if i+1 == len(s) {
				return nil, errors.New("the command ends with a backslash")
			}
			i++
			word.WriteByte(s[i])
		case c == '\'':
			inWord = true
			end := strings.IndexByte(s[i+1:], '\'')
			if end < 0 {
				return nil, errors.New("a single quote is not closed")
			}
			word.WriteString(s[i+1 : i+1+end])
			i += 1 + end
		case c == '"':
			inWord = true
			closed := false
			for i++; i < len(s); i++ {
				if s[i] == '"' {
					closed = true
					break
				}
				if s[i] == '\\' && i+1 < len(s) && strings.IndexByte("\\\"$`", s[i+1]) >= 0 {
					i++
				}
				word.WriteByte(s[i])
			}
			if !closed {
				return nil, errors.New("a double quote is not closed")
			}
		default:
			inWord = true
			word.WriteByte(c)
		}
	}
	if inWord {
		words = append(words, word.String())
	}
	return words, nil
}
