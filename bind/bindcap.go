package bind

import "github.com/bindguard/bindguard/internal/bindcap"

func init() {
	bindcap.ReadsLiteral = func(b any) bool {
		_, reader := b.(*readerBinder)
		return !reader
	}
}
