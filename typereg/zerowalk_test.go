package typereg

import (
	"strings"
	"testing"
)

// deepL0 ... deepL8: each level holds eight of the level below by value;
// the innermost has a tagged int.
type deepL0 struct {
	N int `json:"n" validate:"min=1"`
}

type deepL1 struct {
	F0, F1, F2, F3, F4, F5, F6, F7 deepL0
}

type deepL2 struct {
	F0, F1, F2, F3, F4, F5, F6, F7 deepL1
}

type deepL3 struct {
	F0, F1, F2, F3, F4, F5, F6, F7 deepL2
}

type deepL4 struct {
	F0, F1, F2, F3, F4, F5, F6, F7 deepL3
}

type deepL5 struct {
	F0, F1, F2, F3, F4, F5, F6, F7 deepL4
}

type deepL6 struct {
	F0, F1, F2, F3, F4, F5, F6, F7 deepL5
}

type deepL7 struct {
	F0, F1, F2, F3, F4, F5, F6, F7 deepL6
}

type deepL8 struct {
	F0, F1, F2, F3, F4, F5, F6, F7 deepL7
}

// TestRegister_NestedTagsInAWideDeepType: a type that holds another eight
// times over, eight levels deep, with a tag at the bottom, is refused at
// registration, naming why, instead of costing the validator 16 million
// struct values at registration and on every call it checks; the same
// shape two levels deep registers, and its tag is compiled.
func TestRegister_NestedTagsInAWideDeepType(t *testing.T) {
	reg := New()
	err := Register[struct {
		D deepL8 `json:"d"`
	}](reg, "wide")
	if err == nil || !strings.Contains(err.Error(), "the validator walks each of them on every call") {
		t.Fatalf("registering a type of 8^8 nested structs: %v, want a refusal", err)
	}
	if err := Register[struct {
		D deepL2 `json:"d"`
	}](reg, "small"); err != nil {
		t.Fatalf("registering a type of 8^2 nested structs: %v", err)
	}
	tool, _ := reg.Tool("small")
	if tool.checks == nil || tool.checks.Decode || tool.checks.Params[0].Root == nil {
		t.Fatalf("the small type's nested tag is not compiled: %+v", tool.checks)
	}
}
