// Package redisurl reads KILN_REDIS_URL for both of Kiln's Redis clients
// (go-redis for the metadata, Asynq for the queues), so that one URL means
// the same server, sentinel group or cluster to both:
//
//	redis://[user:password@]host:port[/db]           one server
//	rediss://…                                       the same over TLS
//	redis-sentinel://[:password@]host:port[,host:port…][/db]?master=name
//	                                                 a Sentinel group (failover)
//	redis-cluster://[:password@]host:port[,host:port…] a Redis Cluster
//
// The Sentinel form is Asynq's own (asynq.ParseRedisURI).
package redisurl

import (
	"context"
	"crypto/tls"
	"fmt"
	"net"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/hibiken/asynq"
	goredis "github.com/redis/go-redis/v9"
)

// Kind is how Kiln reaches Redis.
type Kind int

const (
	Single Kind = iota
	Sentinel
	Cluster
)

// Schemes are the URL schemes Parse accepts.
var Schemes = []string{"redis", "rediss", "redis-sentinel", "redis-cluster"}

// Options is a parsed KILN_REDIS_URL.
type Options struct {
	Kind       Kind
	Addrs      []string // the server; the sentinels; the cluster's seed nodes
	MasterName string   // Sentinel
	Username   string
	Password   string
	DB         int // not for Cluster, which has database 0 only
	TLS        *tls.Config
}

// Parse reads raw.
func Parse(raw string) (*Options, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return nil, fmt.Errorf("redis URL: %w", err)
	}
	o := &Options{}
	switch u.Scheme {
	case "redis", "rediss":
		opt, err := goredis.ParseURL(raw)
		if err != nil {
			return nil, fmt.Errorf("redis URL: %w", err)
		}
		return &Options{Kind: Single, Addrs: []string{opt.Addr}, Username: opt.Username, Password: opt.Password, DB: opt.DB, TLS: opt.TLSConfig}, nil
	case "redis-sentinel":
		o.Kind = Sentinel
		o.MasterName = u.Query().Get("master")
		if o.MasterName == "" {
			return nil, fmt.Errorf("redis URL: redis-sentinel:// needs ?master=<name of the monitored master>")
		}
	case "redis-cluster":
		o.Kind = Cluster
	default:
		return nil, fmt.Errorf("redis URL: scheme must be one of %s, got %q", strings.Join(Schemes, ", "), u.Scheme)
	}
	o.Username = u.User.Username()
	o.Password, _ = u.User.Password()
	for a := range strings.SplitSeq(u.Host, ",") {
		if _, port, err := net.SplitHostPort(a); err != nil || port == "" {
			return nil, fmt.Errorf("redis URL: %q is not host:port", a)
		}
		o.Addrs = append(o.Addrs, a)
	}
	if p := strings.Trim(u.Path, "/"); p != "" {
		if o.Kind == Cluster {
			return nil, fmt.Errorf("redis URL: a Redis Cluster has database 0 only, got /%s", p)
		}
		if o.DB, err = strconv.Atoi(p); err != nil || o.DB < 0 {
			return nil, fmt.Errorf("redis URL: the path must be a database number, got /%s", p)
		}
	}
	return o, nil
}

// Timeouts of every connection to Redis. A Redis that stops answering
// (frozen, partitioned, swapping) must cost a request about a second,
// not go-redis's defaults (3 s a read, times three retries): a client
// waiting on Kiln gives up long before that, and a request that hangs
// holds a connection and a goroutine. Commands answer in well under a
// millisecond on a healthy Redis, so a second is a wide margin.
const (
	DialTimeout = 2 * time.Second
	ReadTimeout = time.Second
	// CommandBudget bounds one command or pipeline with its retries,
	// whatever the retries and the backoff between them add up to.
	CommandBudget = 2 * time.Second
)

// Client opens the go-redis client for o. Every command it runs ends
// within CommandBudget: a frozen Redis makes the request fail fast, as
// unavailable, instead of hanging it.
func (o *Options) Client() goredis.UniversalClient {
	var c goredis.UniversalClient
	switch o.Kind {
	case Sentinel:
		c = goredis.NewFailoverClient(&goredis.FailoverOptions{
			MasterName: o.MasterName, SentinelAddrs: o.Addrs,
			Username: o.Username, Password: o.Password, DB: o.DB, TLSConfig: o.TLS,
			DialTimeout: DialTimeout, ReadTimeout: ReadTimeout, WriteTimeout: ReadTimeout,
			PoolTimeout: CommandBudget, ContextTimeoutEnabled: true,
		})
	case Cluster:
		c = goredis.NewClusterClient(&goredis.ClusterOptions{
			Addrs: o.Addrs, Username: o.Username, Password: o.Password, TLSConfig: o.TLS,
			DialTimeout: DialTimeout, ReadTimeout: ReadTimeout, WriteTimeout: ReadTimeout,
			PoolTimeout: CommandBudget, ContextTimeoutEnabled: true,
		})
	default:
		c = goredis.NewClient(&goredis.Options{
			Addr: o.Addrs[0], Username: o.Username, Password: o.Password, DB: o.DB, TLSConfig: o.TLS,
			DialTimeout: DialTimeout, ReadTimeout: ReadTimeout, WriteTimeout: ReadTimeout,
			PoolTimeout: CommandBudget, ContextTimeoutEnabled: true,
		})
	}
	c.AddHook(budgetHook{})
	return c
}

// budgetHook gives each command and pipeline CommandBudget, retries
// included, unless its context already ends sooner.
type budgetHook struct{}

func (budgetHook) DialHook(next goredis.DialHook) goredis.DialHook { return next }

func (budgetHook) ProcessHook(next goredis.ProcessHook) goredis.ProcessHook {
	return func(ctx context.Context, cmd goredis.Cmder) error {
		ctx, cancel := context.WithTimeout(ctx, CommandBudget)
		defer cancel()
		return next(ctx, cmd)
	}
}

func (budgetHook) ProcessPipelineHook(next goredis.ProcessPipelineHook) goredis.ProcessPipelineHook {
	return func(ctx context.Context, cmds []goredis.Cmder) error {
		ctx, cancel := context.WithTimeout(ctx, CommandBudget)
		defer cancel()
		return next(ctx, cmds)
	}
}

// Asynq is o as Asynq's connection option: its failover client for
// Sentinel, its cluster client for Cluster.
func (o *Options) Asynq() asynq.RedisConnOpt {
	switch o.Kind {
	case Sentinel:
		return asynq.RedisFailoverClientOpt{
			MasterName: o.MasterName, SentinelAddrs: o.Addrs,
			Username: o.Username, Password: o.Password, DB: o.DB, TLSConfig: o.TLS,
			DialTimeout: DialTimeout, ReadTimeout: ReadTimeout, WriteTimeout: ReadTimeout,
		}
	case Cluster:
		return asynq.RedisClusterClientOpt{
			Addrs: o.Addrs, Username: o.Username, Password: o.Password, TLSConfig: o.TLS,
			DialTimeout: DialTimeout, ReadTimeout: ReadTimeout, WriteTimeout: ReadTimeout,
		}
	}
	return asynq.RedisClientOpt{
		Addr: o.Addrs[0], Username: o.Username, Password: o.Password, DB: o.DB, TLSConfig: o.TLS,
		DialTimeout: DialTimeout, ReadTimeout: ReadTimeout, WriteTimeout: ReadTimeout,
	}
}
