package bind_test

import "errors"

// selfFrom is read by V2 through its UnmarshalJSONFrom, with this
// build's jsontext (jsontextDecoder): a number, or it fails (segmentio
// and Std see no method of theirs, and read it as the struct it is).
type selfFrom struct{ Raw string }

func (s *selfFrom) UnmarshalJSONFrom(dec *jsontextDecoder) error {
	v, err := dec.ReadValue()
	if err != nil {
		return err
	}
	if v.Kind() != '0' {
		return errors.New("selfFrom: not a number")
	}
	s.Raw = string(v)
	return nil
}
