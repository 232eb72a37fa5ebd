package paint

import (
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"hash"
	"math"
	"reflect"
	"unsafe"
)

// Key identifies a texture by everything its painter reads: painters are
// pure functions of their arguments (see the package comment), so two
// calls with equal keys give the same pixels, and a caller may keep the
// encoded images of one and reuse them for the other. The creator
// rebuilds a configuration with one change at a time, and most of an
// avatar's textures (painting and encoding them is most of a build)
// then have the inputs they had before.
type Key [sha256.Size]byte

// KeyOf is the Key of a painter's arguments, in order: the painter's name
// first, then every value it reads. Values are hashed whole, field by
// field and element by element (a Surface's positions, UVs, triangles
// and masks; a Print; colours; numbers; strings; slices and arrays of
// them; structs of them; pointers to them, nil apart), so a field added
// to Surface or Print is part of the key without a change here. SHA-256:
// a collision would hand one avatar another's texture, so the key is not
// a 64-bit map hash. Kinds that have no value of their own (funcs, maps,
// channels, interfaces) panic: they are a caller's mistake.
func KeyOf(args ...any) Key {
	k := keyWriter{h: sha256.New()}
	for _, a := range args {
		k.value(reflect.ValueOf(a))
	}
	var out Key
	k.h.Sum(out[:0])
	return out
}

type keyWriter struct {
	h   hash.Hash
	buf [8]byte
}

func (k *keyWriter) u64(v uint64) {
	binary.LittleEndian.PutUint64(k.buf[:], v)
	k.h.Write(k.buf[:])
}

func (k *keyWriter) value(v reflect.Value) {
	if !v.IsValid() {
		k.u64(0xdead) // a nil interface argument
		return
	}
	// The kind goes first, so that values of different types whose bytes
	// agree do not collide.
	k.u64(uint64(v.Kind()))
	switch v.Kind() {
	case reflect.Bool:
		if v.Bool() {
			k.u64(1)
		} else {
			k.u64(0)
		}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		k.u64(uint64(v.Int()))
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		k.u64(v.Uint())
	case reflect.Float32, reflect.Float64:
		k.u64(math.Float64bits(v.Float()))
	case reflect.String:
		s := v.String()
		k.u64(uint64(len(s)))
		k.h.Write([]byte(s))
	case reflect.Slice:
		k.u64(uint64(v.Len()))
		if v.Len() > 0 && packed(v.Type().Elem()) {
			// Meshes are tens of thousands of vertices: their bytes at
			// once, not value by value.
			n := v.Len() * int(v.Type().Elem().Size())
			k.h.Write(unsafe.Slice((*byte)(v.UnsafePointer()), n))
			return
		}
		for i := range v.Len() {
			k.value(v.Index(i))
		}
	case reflect.Array:
		for i := range v.Len() {
			k.value(v.Index(i))
		}
	case reflect.Struct:
		k.u64(uint64(v.NumField()))
		for i := range v.NumField() {
			k.value(v.Field(i))
		}
	case reflect.Pointer:
		if v.IsNil() {
			k.u64(0)
			return
		}
		k.u64(1)
		k.value(v.Elem())
	default:
		panic(fmt.Sprintf("paint: KeyOf of a %s", v.Type()))
	}
}

// packed reports whether values of t are fixed-size numbers (or arrays of
// them) with no padding, whose bytes in memory are their value.
func packed(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64, reflect.Int,
		reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uint,
		reflect.Float32, reflect.Float64:
		return true
	case reflect.Array:
		return packed(t.Elem())
	}
	return false
}
