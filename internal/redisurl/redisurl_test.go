package redisurl_test

import (
	"context"
	"fmt"
	"net"
	"os/exec"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/hibiken/asynq"

	"github.com/kilnhq/kiln"
	"github.com/kilnhq/kiln/internal/redisurl"
	"github.com/kilnhq/kiln/internal/testenv"
	"github.com/kilnhq/kiln/storage/redis"
)

func TestParse(t *testing.T) {
	cases := []struct {
		url     string
		want    redisurl.Options
		wantErr string
	}{
		{url: "redis://127.0.0.1:6379/3", want: redisurl.Options{Kind: redisurl.Single, Addrs: []string{"127.0.0.1:6379"}, DB: 3}},
		{url: "redis://:pw@h:1", want: redisurl.Options{Kind: redisurl.Single, Addrs: []string{"h:1"}, Password: "pw"}},
		{url: "redis-sentinel://:pw@s1:26379,s2:26379/2?master=kiln", want: redisurl.Options{Kind: redisurl.Sentinel, Addrs: []string{"s1:26379", "s2:26379"}, MasterName: "kiln", Password: "pw", DB: 2}},
		{url: "redis-cluster://n1:7000,n2:7001,n3:7002", want: redisurl.Options{Kind: redisurl.Cluster, Addrs: []string{"n1:7000", "n2:7001", "n3:7002"}}},
		{url: "redis-sentinel://s1:26379", wantErr: "master"},
		{url: "redis-cluster://n1:7000/1", wantErr: "database 0 only"},
		{url: "redis-cluster://n1", wantErr: "host:port"},
		{url: "redis-sentinel://s1:1/x?master=m", wantErr: "database number"},
		{url: "http://h:1", wantErr: "scheme"},
	}
	for _, c := range cases {
		t.Run(c.url, func(t *testing.T) {
			got, err := redisurl.Parse(c.url)
			if c.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), c.wantErr) {
					t.Fatalf("err %v, want one mentioning %q", err, c.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if fmt.Sprint(*got) != fmt.Sprint(c.want) {
				t.Errorf("got %+v, want %+v", *got, c.want)
			}
		})
	}
}

// redisServer starts a redis-server of the test's own (testenv.RedisServer)
// and returns its port.
func redisServer(t *testing.T, args ...string) int {
	t.Helper()
	port, _ := testenv.RedisServer(t, args...)
	return port
}

// exercise uses url as Kiln does: the metadata store writes and reads an
// API key and runs a WATCH transaction over several keys, and Asynq runs a
// task from enqueue to handler.
func exercise(t *testing.T, url string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 60*time.Second)
	defer cancel()
	rdb, err := redis.Open(ctx, url)
	if err != nil {
		t.Fatalf("redis.Open(%s): %v", url, err)
	}
	defer rdb.Close()
	db := redis.New(rdb)
	if err := db.SeedSystemTemplates(ctx); err != nil {
		t.Fatalf("SeedSystemTemplates: %v", err)
	}
	k, secret, err := kiln.NewAPIKey("acme", "k", []string{kiln.ScopeUserRead}, kiln.PlanFree)
	if err != nil {
		t.Fatal(err)
	}
	if err := db.CreateKey(ctx, k, kiln.HashSecret(secret)); err != nil {
		t.Fatalf("CreateKey (a transaction over several keys): %v", err)
	}
	if got, err := db.KeyBySecretHash(ctx, kiln.HashSecret(secret)); err != nil || got.ID != k.ID {
		t.Fatalf("KeyBySecretHash: %+v, %v", got, err)
	}
	if _, err := db.UpdateCatalog(ctx, "acme", func(cur []kiln.CatalogEntry) ([]kiln.CatalogEntry, error) {
		return append(cur, kiln.CatalogEntry{ObjectID: "obj_1"}), nil
	}); err != nil {
		t.Fatalf("UpdateCatalog (WATCH): %v", err)
	}

	opt, err := redisurl.Parse(url)
	if err != nil {
		t.Fatal(err)
	}
	var ran atomic.Int32
	srv := asynq.NewServer(opt.Asynq(), asynq.Config{Concurrency: 1, LogLevel: asynq.FatalLevel})
	mux := asynq.NewServeMux()
	mux.HandleFunc("t", func(context.Context, *asynq.Task) error { ran.Add(1); return nil })
	if err := srv.Start(mux); err != nil {
		t.Fatalf("asynq server: %v", err)
	}
	defer srv.Shutdown()
	client := asynq.NewClient(opt.Asynq())
	defer client.Close()
	if _, err := client.EnqueueContext(ctx, asynq.NewTask("t", nil)); err != nil {
		t.Fatalf("enqueue: %v", err)
	}
	for ran.Load() == 0 {
		if ctx.Err() != nil {
			t.Fatal("the task never ran")
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// TestSentinel runs a real master watched by a real Sentinel and reaches
// the master through the Sentinel only.
func TestSentinel(t *testing.T) {
	master := redisServer(t)
	sentinel := redisServer(t, "sentinel.conf", "--sentinel",
		"--sentinel", "monitor", "kiln", "127.0.0.1", fmt.Sprint(master), "1")
	exercise(t, fmt.Sprintf("redis-sentinel://127.0.0.1:%d/1?master=kiln", sentinel))
}

// TestCluster makes a real three-node Redis Cluster and uses it through
// one seed node.
func TestCluster(t *testing.T) {
	cli, err := exec.LookPath("redis-cli")
	if err != nil {
		t.Skip("redis-cli is not installed")
	}
	var nodes []string
	for range 3 {
		p := redisServer(t, "--cluster-enabled", "yes", "--cluster-config-file", "nodes.conf", "--appendonly", "no")
		nodes = append(nodes, fmt.Sprintf("127.0.0.1:%d", p))
	}
	out, err := exec.Command(cli, append(append([]string{"--cluster", "create"}, nodes...), "--cluster-replicas", "0", "--cluster-yes")...).CombinedOutput()
	if err != nil {
		t.Fatalf("redis-cli --cluster create: %v\n%s", err, out)
	}
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		host, port, _ := net.SplitHostPort(nodes[0])
		info, _ := exec.Command(cli, "-h", host, "-p", port, "cluster", "info").Output()
		if strings.Contains(string(info), "cluster_state:ok") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("cluster not ok: %s", info)
		}
	}
	exercise(t, "redis-cluster://"+nodes[0])
}
