package contain

import (
	"errors"
	"strings"
	"testing"
	"unicode/utf8"
)

type counting struct {
	calls *int
	next  func(*counting) error
}

func (e *counting) Error() string { return "counting" }
func (e *counting) Unwrap() error { *e.calls++; return e.next(e) }

type wideCounting struct{ calls *int }

func (e *wideCounting) Error() string { return "wide" }
func (e *wideCounting) Unwrap() []error {
	*e.calls++
	kids := make([]error, 1000)
	for i := range kids {
		kids[i] = e
	}
	return kids
}

var errTarget = errors.New("target")

// Find calls Unwrap at most MaxNodes times, whatever the tree: an error
// that unwraps to itself, a wide tree of itself; and finds what is near
// the top.
func TestFind_UnwrapCallsBounded(t *testing.T) {
	calls := 0
	self := &counting{calls: &calls, next: func(e *counting) error { return e }}
	if Is(self, errTarget) {
		t.Error("found a target that is not there")
	}
	if calls > MaxNodes {
		t.Errorf("Unwrap ran %d times on a self-loop, want at most %d", calls, MaxNodes)
	}
	calls = 0
	if Is(&wideCounting{calls: &calls}, errTarget) {
		t.Error("found a target that is not there")
	}
	if calls > MaxNodes {
		t.Errorf("Unwrap ran %d times on a wide tree, want at most %d", calls, MaxNodes)
	}
	calls = 0
	near := &counting{calls: &calls, next: func(*counting) error { return errors.Join(errors.New("x"), errTarget) }}
	if !Is(near, errTarget) {
		t.Error("did not find a target two steps down")
	}
}

type panicky struct{}

func (panicky) Error() string { panic("Error") }
func (panicky) Unwrap() error { panic("Unwrap") }

// A panic in Unwrap ends the walk; in Error, Text says so.
func TestFindAndText_Panics(t *testing.T) {
	if Is(panicky{}, errTarget) {
		t.Error("found a target behind a panicking Unwrap")
	}
	if got := Text(panicky{}); !strings.Contains(got, "panicked") {
		t.Errorf("Text = %q", got)
	}
	if p, _ := Run(func() error { panic(nil) }); p == nil {
		t.Error("Run lost a nil panic")
	}
}

// Text cuts a long text to MaxText bytes, on a character boundary.
func TestText_Cut(t *testing.T) {
	got := Text(errors.New(strings.Repeat("é", 10<<20)))
	if len(got) > MaxText || !utf8.ValidString(got) || !strings.HasSuffix(got, "…") {
		t.Errorf("Text of 10 MB = %d bytes, valid %v", len(got), utf8.ValidString(got))
	}
}
