package draco

import (
	"errors"
	"fmt"
)

// decodedConnectivity is what Draco's edgebreaker decoder rebuilds from
// a stream's connectivity, ported from the bitstream specification's
// decoder so tests can check a stream's faces without node.
type decodedConnectivity struct {
	vert  []int32 // corner → vertex
	opp   []int32
	left  []int32 // vertex → left-most corner (-1: removed)
	faces int
}

type byteReader struct {
	b   []byte
	pos int
	err error
}

func (r *byteReader) byte() byte {
	if r.pos >= len(r.b) {
		r.err = errors.New("short stream")
		return 0
	}
	r.pos++
	return r.b[r.pos-1]
}

func (r *byteReader) varint() uint64 {
	var v uint64
	for s := 0; ; s += 7 {
		c := r.byte()
		v |= uint64(c&0x7f) << s
		if c < 0x80 || r.err != nil {
			return v
		}
	}
}

type bitReader struct {
	b   []byte
	off int
}

func (br *bitReader) get(n int) uint32 {
	var v uint32
	for i := 0; i < n; i++ {
		if br.off/8 < len(br.b) {
			v |= uint32(br.b[br.off/8]>>(br.off%8)&1) << i
		}
		br.off++
	}
	return v
}

// rabsReader is Draco's binary rANS decoder.
type rabsReader struct {
	buf   []byte
	off   int
	state uint32
	p0    uint32
}

func newRABS(r *byteReader) (*rabsReader, error) {
	p0 := uint32(r.byte())
	n := int(r.varint())
	if r.err != nil || r.pos+n > len(r.b) || n < 1 {
		return nil, errors.New("bad rANS buffer")
	}
	buf := r.b[r.pos : r.pos+n]
	r.pos += n
	d := &rabsReader{buf: buf, p0: p0}
	x := buf[n-1] >> 6
	switch x {
	case 0:
		d.off, d.state = n-1, uint32(buf[n-1]&0x3f)
	case 1:
		d.off, d.state = n-2, (uint32(buf[n-2])|uint32(buf[n-1])<<8)&0x3fff
	case 2:
		d.off, d.state = n-3, (uint32(buf[n-3])|uint32(buf[n-2])<<8|uint32(buf[n-1])<<16)&0x3fffff
	default:
		return nil, errors.New("bad rANS end")
	}
	d.state += 4096
	return d, nil
}

func (d *rabsReader) bit() bool {
	p := 256 - d.p0
	if d.state < 4096 && d.off > 0 {
		d.off--
		d.state = d.state*256 + uint32(d.buf[d.off])
	}
	q, rem := d.state/256, d.state%256
	xn := q * p
	if rem < p {
		d.state = xn + rem
		return true
	}
	d.state = d.state - xn - p
	return false
}

// decodeEdgebreaker reads the connectivity that follows a stream's
// header and returns the rebuilt table.
func decodeEdgebreaker(stream []byte) (*decodedConnectivity, error) {
	r := &byteReader{b: stream, pos: 11}
	if r.byte() != 0 {
		return nil, errors.New("not standard edgebreaker")
	}
	numVerts := int(r.varint())
	numFaces := int(r.varint())
	if r.byte() != 0 {
		return nil, errors.New("attribute data")
	}
	numSymbols := int(r.varint())
	numSplitSymbols := int(r.varint())
	numSplits := int(r.varint())
	type split struct {
		source, split int
		edge          uint32
	}
	splits := make([]split, numSplits)
	last := 0
	for i := range splits {
		splits[i].source = int(r.varint()) + last
		splits[i].split = splits[i].source - int(r.varint())
		last = splits[i].source
	}
	if numSplits > 0 {
		br := &bitReader{b: r.b[r.pos:]}
		for i := range splits {
			splits[i].edge = br.get(1)
		}
		r.pos += (br.off + 7) / 8
	}
	symLen := int(r.varint())
	if r.err != nil || r.pos+symLen > len(r.b) {
		return nil, errors.New("short symbols")
	}
	syms := &bitReader{b: r.b[r.pos : r.pos+symLen]}
	r.pos += symLen
	starts, err := newRABS(r)
	if err != nil {
		return nil, err
	}
	d := &decodedConnectivity{vert: make([]int32, 3*numFaces), opp: make([]int32, 3*numFaces), faces: numFaces}
	for i := range d.vert {
		d.vert[i], d.opp[i] = -1, -1
	}
	maxVerts := numVerts + numSplitSymbols
	setOpp := func(a, b int32) { d.opp[a], d.opp[b] = b, a }
	opposite := func(c int32) int32 {
		if c < 0 {
			return -1
		}
		return d.opp[c]
	}
	swingLeft := func(c int32) int32 { return next(opposite(next(c))) }
	newVert := func() int32 { d.left = append(d.left, -1); return int32(len(d.left) - 1) }
	var active []int32
	splitActive := map[int]int32{}
	var invalid []int32
	face := 0
	for id := 0; id < numSymbols; id++ {
		corner := int32(3 * face)
		face++
		checkSplit := false
		sym := syms.get(1)
		if sym != symC {
			sym |= syms.get(2) << 1
		}
		switch sym {
		case symC:
			if len(active) == 0 {
				return nil, fmt.Errorf("symbol %d: C on empty stack", id)
			}
			a := active[len(active)-1]
			x := d.vert[next(a)]
			b := next(d.left[x])
			if a == b || opposite(a) >= 0 || opposite(b) >= 0 {
				return nil, fmt.Errorf("symbol %d: C corners %d %d", id, a, b)
			}
			setOpp(a, corner+1)
			setOpp(b, corner+2)
			ap, bn := d.vert[prev(a)], d.vert[next(b)]
			if x == ap || x == bn {
				return nil, fmt.Errorf("symbol %d: C degenerate", id)
			}
			d.vert[corner], d.vert[corner+1], d.vert[corner+2] = x, bn, ap
			d.left[ap] = corner + 2
			active[len(active)-1] = corner
		case symR, symL:
			if len(active) == 0 {
				return nil, fmt.Errorf("symbol %d: R/L on empty stack", id)
			}
			a := active[len(active)-1]
			if opposite(a) >= 0 {
				return nil, fmt.Errorf("symbol %d: R/L opposite taken", id)
			}
			oc, cl, cr := corner+2, corner+1, corner
			if sym == symL {
				oc, cl, cr = corner+1, corner, corner+2
			}
			setOpp(oc, a)
			nv := newVert()
			if len(d.left) > maxVerts {
				return nil, fmt.Errorf("symbol %d: too many vertices", id)
			}
			d.vert[oc] = nv
			d.left[nv] = oc
			vr := d.vert[prev(a)]
			d.vert[cr] = vr
			d.left[vr] = cr
			d.vert[cl] = d.vert[next(a)]
			active[len(active)-1] = corner
			checkSplit = true
		case symS:
			if len(active) == 0 {
				return nil, fmt.Errorf("symbol %d: S on empty stack", id)
			}
			b := active[len(active)-1]
			active = active[:len(active)-1]
			if c, ok := splitActive[id]; ok {
				active = append(active, c)
			}
			if len(active) == 0 {
				return nil, fmt.Errorf("symbol %d: S without a second branch", id)
			}
			a := active[len(active)-1]
			if a == b || opposite(a) >= 0 || opposite(b) >= 0 {
				return nil, fmt.Errorf("symbol %d: S corners %d %d", id, a, b)
			}
			setOpp(a, corner+2)
			setOpp(b, corner+1)
			vp := d.vert[prev(a)]
			d.vert[corner] = vp
			d.vert[corner+1] = d.vert[next(a)]
			bp := d.vert[prev(b)]
			d.vert[corner+2] = bp
			d.left[bp] = corner + 2
			cn := next(b)
			vn := d.vert[cn]
			d.left[vp] = d.left[vn]
			first := cn
			for cn >= 0 {
				d.vert[cn] = vp
				cn = swingLeft(cn)
				if cn == first {
					return nil, fmt.Errorf("symbol %d: S loops", id)
				}
			}
			d.left[vn] = -1
			invalid = append(invalid, vn)
			active[len(active)-1] = corner
		case symE:
			v := newVert()
			newVert()
			newVert()
			if len(d.left) > maxVerts {
				return nil, fmt.Errorf("symbol %d: too many vertices", id)
			}
			d.vert[corner], d.vert[corner+1], d.vert[corner+2] = v, v+1, v+2
			d.left[v], d.left[v+1], d.left[v+2] = corner, corner+1, corner+2
			active = append(active, corner)
			checkSplit = true
		default:
			return nil, fmt.Errorf("symbol %d: %d", id, sym)
		}
		if checkSplit {
			enc := numSymbols - id - 1
			if len(splits) > 0 && splits[len(splits)-1].source > enc {
				return nil, fmt.Errorf("symbol %d: split event at %d missed", id, splits[len(splits)-1].source)
			}
			for len(splits) > 0 && splits[len(splits)-1].source == enc {
				s := splits[len(splits)-1]
				splits = splits[:len(splits)-1]
				top := active[len(active)-1]
				nc := prev(top)
				if s.edge == rightEdge {
					nc = next(top)
				}
				splitActive[numSymbols-s.split-1] = nc
			}
		}
	}
	for len(active) > 0 {
		c := active[len(active)-1]
		active = active[:len(active)-1]
		if !starts.bit() {
			continue
		}
		if face >= numFaces {
			return nil, errors.New("too many start faces")
		}
		vn := d.vert[next(c)]
		b := next(d.left[vn])
		vx := d.vert[next(b)]
		cc := next(d.left[vx])
		if c == b || c == cc || b == cc || opposite(c) >= 0 || opposite(b) >= 0 || opposite(cc) >= 0 {
			return nil, errors.New("bad start face")
		}
		vp := d.vert[next(cc)]
		nc := int32(3 * face)
		face++
		setOpp(nc, c)
		setOpp(nc+1, b)
		setOpp(nc+2, cc)
		d.vert[nc], d.vert[nc+1], d.vert[nc+2] = vx, vp, vn
	}
	if face != numFaces {
		return nil, fmt.Errorf("%d faces decoded, %d announced", face, numFaces)
	}
	// Every live vertex's fan holds its corners only.
	dt := &cornerTable{vert: d.vert, opp: d.opp, left: d.left}
	for v, l := range d.left {
		if l < 0 {
			continue
		}
		c := l
		for c >= 0 {
			if d.vert[c] != int32(v) {
				return nil, fmt.Errorf("vertex %d: corner %d of vertex %d in its fan", v, c, d.vert[c])
			}
			c = dt.swingLeft(c)
			if c == l {
				break
			}
		}
		for c = dt.swingRight(l); c >= 0 && c != l; c = dt.swingRight(c) {
			if d.vert[c] != int32(v) {
				return nil, fmt.Errorf("vertex %d: corner %d of vertex %d in its right fan", v, c, d.vert[c])
			}
		}
	}
	_ = invalid
	return d, nil
}
