package testenv

import (
	"fmt"
	"math/rand/v2"
	"net"
	"os"
	"testing"
)

// FreePort is a loopback port free at the time of the call, for a child
// process (kiln serve, redis-server) that must be told its port before
// it starts. It is drawn below the kernel's ephemeral range: a port the
// kernel handed out for ":0" is handed out again at once to the next
// outgoing connection or ":0" listener of any test running beside this
// one, and the child then fails with "address already in use" (seen in
// CI). Outside that range only another FreePort can collide, and the
// draw is random over thousands of ports.
func FreePort(t testing.TB) int {
	t.Helper()
	low := ephemeralLow()
	for range 100 {
		port := 10000 + rand.IntN(low-10000)
		ln, err := net.Listen("tcp", fmt.Sprintf("127.0.0.1:%d", port))
		if err != nil {
			continue
		}
		ln.Close()
		return port
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}

// ephemeralLow is the first port of the kernel's ephemeral range (Linux's
// default 32768 when it cannot be read, or when it leaves too little
// room below).
func ephemeralLow() int {
	low := 32768
	if b, err := os.ReadFile("/proc/sys/net/ipv4/ip_local_port_range"); err == nil {
		var lo, hi int
		if _, err := fmt.Sscan(string(b), &lo, &hi); err == nil && lo > 12000 {
			low = lo
		}
	}
	return low
}
