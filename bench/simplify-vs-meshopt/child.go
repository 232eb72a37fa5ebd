package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"log"
	"os"
	"os/exec"
)

// child is a contender run as its own process (node with meshoptimizer's
// WebAssembly build, or the native driver) that answers each request line
// with one line.
type child struct {
	name string // in log messages
	cmd  *exec.Cmd
	in   io.WriteCloser
	out  *bufio.Scanner
}

func startChild(name, path string, args ...string) *child {
	cmd := exec.Command(path, args...)
	cmd.Stderr = os.Stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		log.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		log.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		log.Fatalf("%s: %v", name, err)
	}
	sc := bufio.NewScanner(out)
	sc.Buffer(make([]byte, 1<<16), 1<<20)
	return &child{name: name, cmd: cmd, in: in, out: sc}
}

// ask sends one request line and returns the answer line.
func (c *child) ask(format string, a ...any) string {
	if _, err := fmt.Fprintf(c.in, format+"\n", a...); err != nil {
		log.Fatalf("%s: %v", c.name, err)
	}
	if !c.out.Scan() {
		log.Fatalf("%s stopped: %v", c.name, errors.Join(c.out.Err(), io.ErrUnexpectedEOF))
	}
	return c.out.Text()
}

func (c *child) close() {
	c.in.Close()
	if err := c.cmd.Wait(); err != nil {
		log.Printf("%s: %v", c.name, err)
	}
}
