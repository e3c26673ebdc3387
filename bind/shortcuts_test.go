package bind

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"strconv"
	"testing"

	"github.com/bindguard/bindguard/internal/jsonlex"
)

// The fuzz targets here prove each shortcut equal to what the binder does,
// piece by piece, against the standard library functions the binder calls.

// intVerdictFromStrconv is the binder's own verdict on a JSON integer
// literal for a type of the given size: strconv, then reflect's overflow
// check.
func intVerdictFromStrconv(lit string, bits int, signed bool) Code {
	if signed {
		n, err := strconv.ParseInt(lit, 10, 64)
		if err != nil || n < -1<<(bits-1) || n > 1<<(bits-1)-1 {
			if lit[0] == '-' {
				return TooSmall
			}
			return TooLarge
		}
		return ""
	}
	n, err := strconv.ParseUint(lit, 10, 64)
	if err != nil || bits < 64 && n>>bits != 0 {
		if lit[0] == '-' {
			return TooSmall
		}
		return TooLarge
	}
	return ""
}

// TestIsValidNumber_Std: isValidNumber is encoding/json's rule for a
// json.Number's text, over every string of up to six bytes from the
// number grammar's alphabet (and one byte out of it).
func TestIsValidNumber_Std(t *testing.T) {
	const alphabet = "0129-+.eEx"
	var buf [6]byte
	var walk func(n int)
	walk = func(n int) {
		s := buf[:n]
		var num json.Number
		err := json.Unmarshal([]byte(`"`+string(s)+`"`), &num)
		if got := isValidNumber(s); got != (err == nil) {
			t.Fatalf("isValidNumber(%q) = %v, encoding/json: %v", s, got, err)
		}
		if n == len(buf) {
			return
		}
		for i := range len(alphabet) {
			buf[n] = alphabet[i]
			walk(n + 1)
		}
	}
	walk(0)
}

func FuzzIntVerdict(f *testing.F) {
	for _, s := range []string{"0", "-0", "127", "128", "-128", "-129", "9223372036854775807", "9223372036854775808",
		"-9223372036854775808", "-9223372036854775809", "18446744073709551615", "18446744073709551616",
		"99999999999999999999", "100000000000000000000", "-100000000000000000000"} {
		f.Add(s, uint8(3), true)
		f.Add(s, uint8(3), false)
	}
	f.Fuzz(func(t *testing.T, lit string, size uint8, signed bool) {
		bits := []int{8, 16, 32, 64}[size%4]
		// Only JSON integer literals reach intVerdict: -?(0|[1-9][0-9]*).
		if !isValidNumber([]byte(lit)) || bytes.ContainsAny([]byte(lit), ".eE") {
			return
		}
		neg := lit[0] == '-'
		digits := lit
		if neg {
			digits = lit[1:]
		}
		got := intVerdict(neg, []byte(digits), bits, signed)
		if want := intVerdictFromStrconv(lit, bits, signed); got != want {
			t.Errorf("intVerdict(%s, %d bits, signed %v) = %v, strconv says %v", lit, bits, signed, got, want)
		}
	})
}

func FuzzFloatVerdict(f *testing.F) {
	for _, s := range []string{"0", "1e38", "3.4028235e38", "3.5e38", "1e308", "1.8e308", "-1e400", "1e-400",
		"340282356779733661637539395458142568448", "99999999999999999999999999999999999999",
		"0.0001e312", "1797693134862315708145274237317043567981e269", "0e999999999999", "1e-999999999999", "-1e999999999999",
		"17976931348623158e292", "17976931348623157e292", "3.4028235677973366e38", "3.4028236e38", "0.000e5"} {
		f.Add(s, false)
		f.Add(s, true)
	}
	f.Fuzz(func(t *testing.T, lit string, single bool) {
		if !isValidNumber([]byte(lit)) {
			return
		}
		bits := 64
		if single {
			bits = 32
		}
		got := floatVerdict([]byte(lit), bits)
		_, err := strconv.ParseFloat(lit, bits)
		if (got != "") != (err != nil) {
			t.Errorf("floatVerdict(%s, %d) = %v, ParseFloat says %v", lit, bits, got, err)
		}
	})
}

func FuzzBase64Valid(f *testing.F) {
	for _, s := range []string{"", "YQ==", "YQ=", "YQ", "YWI=", "YWJj", "aGVs\nbG8=", "aGVsbG8=\r\n", "YQ=\n=", "YQ==YQ==", "====", "Y", "YWJjZGVmZ2g="} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, s []byte) {
		_, err := base64.StdEncoding.Decode(make([]byte, base64.StdEncoding.DecodedLen(len(s))), s)
		if got := base64Valid(s); got != (err == nil) {
			t.Errorf("base64Valid(%q) = %v, StdEncoding.Decode says %v", s, got, err)
		}
	})
}

func FuzzFoldName(f *testing.F) {
	f.Add([]byte("hours_back"), []byte("HOURS_BACK"))
	f.Add([]byte("k"), []byte("\u212a"))
	f.Add([]byte("s"), []byte("\u017f"))
	f.Add([]byte("\xff"), []byte("\xfe"))
	f.Fuzz(func(t *testing.T, a, b []byte) {
		same := bytes.Equal(foldName(nil, a), foldName(nil, b))
		if same != bytes.EqualFold(a, b) {
			t.Errorf("foldName(%q) == foldName(%q) is %v; bytes.EqualFold says %v", a, b, same, !same)
		}
	})
}

// FuzzQuotedVerdict compares the ,string reading of bool, integer and float
// fields with encoding/json's, on the text inside the string.
func FuzzQuotedVerdict(f *testing.F) {
	for _, s := range []string{"", "5", "-5", "0005", "-0", "+5", "1.5", "1e2", "null", "nul", "true", "false", `"5"`,
		"-Inf", "0x1p-2", "NaN", "99999999999999999999999", "-", " 5", "1_0"} {
		f.Add(s, uint8(0))
	}
	f.Fuzz(func(t *testing.T, content string, which uint8) {
		raw, _ := json.Marshal(content) // the JSON string holding content
		var err error
		var base nodeKind
		bits := 64
		switch which % 5 {
		case 0:
			var v struct {
				F int8 `json:",string"`
			}
			err, base, bits = json.Unmarshal([]byte(`{"F":`+string(raw)+`}`), &v), kInt, 8
		case 1:
			var v struct {
				F int64 `json:",string"`
			}
			err, base = json.Unmarshal([]byte(`{"F":`+string(raw)+`}`), &v), kInt
		case 2:
			var v struct {
				F uint32 `json:",string"`
			}
			err, base, bits = json.Unmarshal([]byte(`{"F":`+string(raw)+`}`), &v), kUint, 32
		case 3:
			var v struct {
				F float32 `json:",string"`
			}
			err, base, bits = json.Unmarshal([]byte(`{"F":`+string(raw)+`}`), &v), kFloat, 32
		case 4:
			var v struct {
				F bool `json:",string"`
			}
			err, base, bits = json.Unmarshal([]byte(`{"F":`+string(raw)+`}`), &v), kBool, 0
		}
		// The checker reads content the way encoding/json's valueQuoted does.
		text, _ := jsonlex.Unquote(nil, raw)
		if got := quotedVerdictOf(text, base, bits); (got != "") != (err != nil) {
			t.Errorf("quotedVerdictOf(%q, %v/%d) = %v; encoding/json says %v", content, base, bits, got, err)
		}
	})
}

func TestIntVerdict_Table(t *testing.T) {
	for _, tc := range []struct {
		lit    string
		bits   int
		signed bool
		want   Code
	}{
		{"127", 8, true, ""}, {"128", 8, true, TooLarge}, {"-128", 8, true, ""}, {"-129", 8, true, TooSmall},
		{"255", 8, false, ""}, {"256", 8, false, TooLarge}, {"-0", 8, false, TooSmall}, {"-0", 64, true, ""},
		{"9223372036854775807", 64, true, ""}, {"9223372036854775808", 64, true, TooLarge},
		{"-9223372036854775808", 64, true, ""}, {"-9223372036854775809", 64, true, TooSmall},
		{"18446744073709551615", 64, false, ""}, {"18446744073709551616", 64, false, TooLarge},
		// 21 significant digits: past every integer type, decided by length.
		{"100000000000000000000", 64, false, TooLarge}, {"-100000000000000000000", 64, true, TooSmall},
	} {
		neg := tc.lit[0] == '-'
		digits := tc.lit
		if neg {
			digits = digits[1:]
		}
		if got := intVerdict(neg, []byte(digits), tc.bits, tc.signed); got != tc.want {
			t.Errorf("intVerdict(%s, %d, %v) = %v, want %v", tc.lit, tc.bits, tc.signed, got, tc.want)
		}
		if want := intVerdictFromStrconv(tc.lit, tc.bits, tc.signed); want != tc.want {
			t.Errorf("the table row %s/%d/%v disagrees with strconv (%v)", tc.lit, tc.bits, tc.signed, want)
		}
	}
}
