package embedded

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"strconv"
)

// readCommand reads one client command, an array of bulk strings as every
// Redis client sends them, and returns its raw bytes and its arguments.
func readCommand(r *bufio.Reader) (raw []byte, args []string, err error) {
	var buf bytes.Buffer
	line, err := readLine(r, &buf)
	if err != nil {
		return nil, nil, err
	}
	if len(line) == 0 || line[0] != '*' {
		return nil, nil, fmt.Errorf("resp: want an array of bulk strings, got %q", line)
	}
	n, err := strconv.Atoi(string(line[1:]))
	if err != nil || n < 1 || n > 1<<20 {
		return nil, nil, fmt.Errorf("resp: bad array length %q", line)
	}
	args = make([]string, n)
	for i := range args {
		line, err := readLine(r, &buf)
		if err != nil {
			return nil, nil, err
		}
		if len(line) == 0 || line[0] != '$' {
			return nil, nil, fmt.Errorf("resp: want a bulk string, got %q", line)
		}
		size, err := strconv.Atoi(string(line[1:]))
		if err != nil || size < 0 || size > 512<<20 {
			return nil, nil, fmt.Errorf("resp: bad bulk length %q", line)
		}
		start := buf.Len()
		if _, err := io.CopyN(&buf, r, int64(size)+2); err != nil {
			return nil, nil, err
		}
		args[i] = string(buf.Bytes()[start : start+size])
	}
	return buf.Bytes(), args, nil
}

// readReply copies one whole reply, RESP2 or RESP3 (go-redis speaks 3),
// into buf and reports its type byte and whether it is a null.
func readReply(r *bufio.Reader, buf *bytes.Buffer) (typ byte, null bool, err error) {
	line, err := readLine(r, buf)
	if err != nil {
		return 0, false, err
	}
	if len(line) == 0 {
		return 0, false, fmt.Errorf("resp: empty reply line")
	}
	typ = line[0]
	switch typ {
	case '+', '-', ':', ',', '#', '(':
		return typ, false, nil
	case '_':
		return typ, true, nil
	case '$', '!', '=':
		n, err := strconv.Atoi(string(line[1:]))
		if err != nil {
			return 0, false, fmt.Errorf("resp: bad length %q", line)
		}
		if n < 0 {
			return typ, true, nil
		}
		_, err = io.CopyN(buf, r, int64(n)+2)
		return typ, false, err
	case '*', '~', '>', '%', '|':
		n, err := strconv.Atoi(string(line[1:]))
		if err != nil {
			return 0, false, fmt.Errorf("resp: bad length %q", line)
		}
		if n < 0 {
			return typ, true, nil
		}
		if typ == '%' || typ == '|' {
			n *= 2
		}
		for range n {
			if _, _, err := readReply(r, buf); err != nil {
				return 0, false, err
			}
		}
		if typ == '|' { // attributes precede the reply they describe
			return readReply(r, buf)
		}
		return typ, false, nil
	}
	return 0, false, fmt.Errorf("resp: unknown reply type %q", typ)
}

// readLine reads one CRLF-terminated line into buf and returns it without
// the CRLF.
func readLine(r *bufio.Reader, buf *bytes.Buffer) ([]byte, error) {
	line, err := r.ReadSlice('\n')
	if err != nil {
		return nil, err
	}
	buf.Write(line)
	if len(line) < 2 || line[len(line)-2] != '\r' {
		return nil, fmt.Errorf("resp: line without CRLF")
	}
	return line[:len(line)-2], nil
}

// appendCommand encodes args as a client command.
func appendCommand(b []byte, args ...string) []byte {
	b = append(b, '*')
	b = strconv.AppendInt(b, int64(len(args)), 10)
	b = append(b, '\r', '\n')
	for _, a := range args {
		b = append(b, '$')
		b = strconv.AppendInt(b, int64(len(a)), 10)
		b = append(b, '\r', '\n')
		b = append(b, a...)
		b = append(b, '\r', '\n')
	}
	return b
}
