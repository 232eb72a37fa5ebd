package embedded

import (
	"bufio"
	"context"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"os"
	"os/exec"
	"strconv"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

const walChildEnv = "KILN_EMBEDDED_WAL_CHILD"

// counterScript is run by EVALSHA after its first EVAL, as go-redis does.
var counterScript = redis.NewScript(`redis.call("HSET", KEYS[1], ARGV[1], ARGV[2]) return redis.call("INCR", KEYS[2])`)

// writeForever is the child: it writes through every path a client uses
// (plain commands in two databases, MULTI/EXEC, scripts by EVAL and
// EVALSHA, a WATCH transaction that aborts) and prints the number of each
// round once all its writes are acknowledged, until it is killed. Nothing
// ever calls Save: only the log can keep the writes.
func writeForever(dir string) {
	ctx := context.Background()
	s, err := Start(ctx, dir, slog.New(slog.DiscardHandler))
	if err != nil {
		fmt.Println("start:", err)
		os.Exit(1)
	}
	c0 := redis.NewClient(&redis.Options{Addr: s.Addr()})
	c3 := redis.NewClient(&redis.Options{Addr: s.Addr(), DB: 3})
	other := redis.NewClient(&redis.Options{Addr: s.Addr()})
	// Rounds go on after the last whose script ran (a round cut short
	// before it is done again).
	start, err := c0.HLen(ctx, "h").Result()
	if err != nil {
		fmt.Println("start:", err)
		os.Exit(1)
	}
	for i := int(start); ; i++ {
		n := strconv.Itoa(i)
		err := c0.Set(ctx, "k:"+n, n, 0).Err()
		if err == nil {
			err = c3.RPush(ctx, "list", n).Err()
		}
		if err == nil {
			_, err = c0.TxPipelined(ctx, func(p redis.Pipeliner) error {
				p.ZAdd(ctx, "z", redis.Z{Score: float64(i), Member: n})
				p.SAdd(ctx, "s", n)
				return nil
			})
		}
		if err == nil {
			err = counterScript.Run(ctx, c0, []string{"h", "count"}, n, "v"+n).Err()
		}
		if err == nil {
			// A transaction whose watched key another client changes
			// aborts: its write must not come back after a restart.
			err = c0.Watch(ctx, func(tx *redis.Tx) error {
				if err := other.Set(ctx, "watched", n, 0).Err(); err != nil {
					return err
				}
				_, err := tx.TxPipelined(ctx, func(p redis.Pipeliner) error {
					p.Set(ctx, "aborted:"+n, "x", 0)
					return nil
				})
				return err
			}, "watched")
			if err == redis.TxFailedErr {
				err = nil
			}
		}
		if err != nil {
			fmt.Println("write:", err)
			os.Exit(1)
		}
		fmt.Println(i)
	}
}

func atoi(s string) int {
	n, _ := strconv.Atoi(s)
	return n
}

// TestKillKeepsAcknowledgedWrites kills the writing child with SIGKILL at
// random moments, several times over the same dir, and checks after each
// kill that every round it reported is there, whole, and nothing of the
// aborted transactions.
func TestKillKeepsAcknowledgedWrites(t *testing.T) {
	if dir := os.Getenv(walChildEnv); dir != "" {
		writeForever(dir)
		return
	}
	t.Parallel()
	dir := t.TempDir()
	acked := -1
	for run := range 4 {
		cmd := exec.CommandContext(t.Context(), os.Args[0], "-test.run=^TestKillKeepsAcknowledgedWrites$")
		cmd.Env = append(os.Environ(), walChildEnv+"="+dir)
		out, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		lines := make(chan string)
		go func() {
			sc := bufio.NewScanner(out)
			for sc.Scan() {
				lines <- sc.Text()
			}
			close(lines)
		}()
		kill := time.After(300*time.Millisecond + rand.N(500*time.Millisecond))
	read:
		for {
			select {
			case l, ok := <-lines:
				if !ok {
					t.Fatalf("run %d: the child ended: %v", run, cmd.Wait())
				}
				i, err := strconv.Atoi(l)
				if err != nil {
					t.Fatalf("run %d: child says %q", run, l)
				}
				acked = max(acked, i)
			case <-kill:
				cmd.Process.Kill()
				break read
			}
		}
		for range lines { // rounds acknowledged before the kill landed
		}
		cmd.Wait()
		if acked < 0 {
			t.Fatalf("run %d: no round acknowledged", run)
		}

		s := startT(t, dir)
		c0, c3 := clientT(t, s, 0), clientT(t, s, 3)
		ctx := t.Context()
		list, _ := c3.LRange(ctx, "list", 0, -1).Result()
		inList := map[string]bool{}
		for j, v := range list {
			inList[v] = true
			if j > 0 && atoi(v) < atoi(list[j-1]) {
				t.Fatalf("run %d: list %q after %q: the log replayed out of order", run, v, list[j-1])
			}
		}
		if count, _ := c0.Get(ctx, "count").Int(); count < acked+1 {
			t.Fatalf("run %d: %d rounds acknowledged, the script's counter is %d after restart", run, acked+1, count)
		}
		for i := 0; i <= acked; i++ {
			n := strconv.Itoa(i)
			v, err := c0.Get(ctx, "k:"+n).Result()
			_, zerr := c0.ZScore(ctx, "z", n).Result()
			member, _ := c0.SIsMember(ctx, "s", n).Result()
			hv, _ := c0.HGet(ctx, "h", n).Result()
			if err != nil || v != n || zerr != nil || !member || hv != "v"+n || !inList[n] {
				t.Fatalf("run %d: round %d of %d acknowledged is incomplete after restart: k=%q (%v), in zset: %v, in set: %v, hash %q, in list: %v",
					run, i, acked+1, v, err, zerr == nil, member, hv, inList[n])
			}
		}
		if keys, _ := c0.Keys(ctx, "aborted:*").Result(); len(keys) > 0 {
			t.Fatalf("run %d: writes of aborted transactions came back: %v", run, keys[:min(3, len(keys))])
		}
		if run%2 == 1 {
			// Half the runs fold the log into the snapshot first.
			if err := s.compact(t.Context()); err != nil {
				t.Fatal(err)
			}
		}
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
		t.Logf("run %d: %d rounds acknowledged, all there after SIGKILL", run, acked+1)
	}
}
