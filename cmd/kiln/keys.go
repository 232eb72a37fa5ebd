package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"strings"

	"github.com/kilnhq/kiln"
	"github.com/kilnhq/kiln/internal/config"
	"github.com/kilnhq/kiln/storage/embedded"
	"github.com/kilnhq/kiln/storage/redis"
)

// keys manages API keys in the configured store. With the embedded Redis
// it talks to the running kiln serve of the data dir, or, when none runs,
// opens the saved state itself and saves it again.
func keys(ctx context.Context, cfg *config.Config, args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprintln(stderr, "kiln keys: usage: kiln keys create|list|revoke")
		return 2
	}
	url := cfg.RedisURL
	if cfg.Embedded() {
		if addr, ok := embedded.Running(cfg.DataDir); ok {
			url = "redis://" + addr
		} else {
			// The CLI's output is its answer: keep the store's info lines out.
			quiet := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
			srv, err := embedded.Start(ctx, cfg.DataDir, quiet)
			if err != nil {
				fmt.Fprintf(stderr, "kiln keys: %v\n", err)
				return 1
			}
			defer srv.Close()
			url = srv.URL()
		}
	}
	rdb, err := redis.Open(ctx, url)
	if err != nil {
		fmt.Fprintf(stderr, "kiln keys: %v\n", err)
		return 1
	}
	defer rdb.Close()
	db := redis.New(rdb)
	if err := keysCommand(ctx, db, args[0], args[1:], stdout); err != nil {
		fmt.Fprintf(stderr, "kiln keys %s: %s\n", args[0], message(err))
		if err == errUsage || kiln.KindOf(err) == kiln.KindInvalid {
			return 2
		}
		return 1
	}
	return 0
}

func message(err error) string {
	if err == errUsage {
		return "usage: kiln keys create --account A --scopes s1,s2 [--plan P] [--name N] | list | revoke ID"
	}
	if k := kiln.KindOf(err); kiln.HasCode(err) && k != kiln.KindInternal {
		_, msg := kiln.CodeOf(err)
		return msg
	}
	return err.Error()
}

func keysCommand(ctx context.Context, db *redis.DB, cmd string, args []string, stdout io.Writer) error {
	switch cmd {
	case "create":
		fs := flag.NewFlagSet("create", flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		account := fs.String("account", "", "account the key belongs to")
		name := fs.String("name", "", "a name to recognise the key by")
		scopes := fs.String("scopes", "", "comma-separated scopes")
		plan := fs.String("plan", "free", "free, premium or enterprise")
		if err := fs.Parse(args); err != nil || fs.NArg() != 0 {
			return errUsage
		}
		var list []string
		for _, s := range strings.Split(*scopes, ",") {
			if s = strings.TrimSpace(s); s != "" {
				list = append(list, s)
			}
		}
		k, secret, err := kiln.NewAPIKey(*account, *name, list, kiln.Plan(*plan))
		if err != nil {
			return err
		}
		if err := db.CreateKey(ctx, k, kiln.HashSecret(secret)); err != nil {
			return err
		}
		return printJSON(stdout, kiln.IssuedKey{APIKey: k, Key: secret})
	case "list":
		if len(args) != 0 {
			return errUsage
		}
		keys, err := db.ListKeys(ctx)
		if err != nil {
			return err
		}
		return printJSON(stdout, keys)
	case "revoke":
		if len(args) != 1 {
			return errUsage
		}
		if err := kiln.CheckID("id", args[0]); err != nil {
			return err
		}
		if err := db.RevokeKey(ctx, args[0]); err != nil {
			if kiln.KindOf(err) == kiln.KindNotFound {
				return kiln.Errorf(kiln.KindNotFound, "key_not_found", "no API key with id %s was found", args[0])
			}
			return err
		}
		fmt.Fprintf(stdout, "revoked %s\n", args[0])
		return nil
	}
	return errUsage
}
