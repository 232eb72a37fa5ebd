// Command kiln is the one binary of Kiln: the API, the worker, both at
// once, and the tools that work on files or keys without a server.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"syscall"

	"github.com/kilnhq/kiln/internal/app"
	"github.com/kilnhq/kiln/internal/config"
)

const usage = `kiln: an open 3D asset service

Usage:
  kiln serve                 API and worker in one process (embedded Redis and disk when unconfigured)
  kiln api                   the platform and avatar listeners only
  kiln worker                the job worker only
  kiln keys create --account A --scopes s1,s2 [--plan free|premium|enterprise] [--name N]
  kiln keys list
  kiln keys revoke ID
  kiln inspect FILE          print a model's stats as JSON
  kiln render IN.glb OUT.png|jpg|webp [--size N] [--camera full|portrait] [--background R,G,B]
                             draw a preview image of a model (transparent unless --background; JPEG gets white)
  kiln avatar CONFIG.json OUT.glb
                             build the avatar of a configuration (JSON, as POST /avatar takes it)
  kiln optimize IN.glb OUT.glb [--lod 0|1|2] [--texture-format webp|png|compat] [--texture-size source|N] [--atlas N] [--merge] [--meshopt]
                             run the processing pipeline on a file; prints stats as JSON

Configuration comes from KILN_* environment variables; see README.md.
`

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run returns the exit code: 0 done, 1 failed, 2 bad usage or configuration.
func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] == "help" || args[0] == "-h" || args[0] == "--help" {
		fmt.Fprint(stdout, usage)
		return 0
	}
	cmd, args := args[0], args[1:]
	switch cmd {
	case "inspect":
		return inspect(args, stdout, stderr)
	case "optimize":
		return optimize(args, stdout, stderr)
	case "avatar":
		return avatarCmd(args, stdout, stderr)
	case "render":
		return renderCmd(args, stdout, stderr)
	}
	cfg, err := config.FromEnv(os.Getenv)
	if err != nil {
		fmt.Fprintf(stderr, "kiln: %v\n", err)
		return 2
	}
	log := newLogger(cfg, stderr)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	var roles app.Roles
	switch cmd {
	case "serve":
		roles = app.Roles{API: true, Worker: true}
	case "api":
		roles = app.Roles{API: true}
	case "worker":
		roles = app.Roles{Worker: true}
	case "keys":
		return keys(ctx, cfg, args, stdout, stderr)
	default:
		fmt.Fprintf(stderr, "kiln: unknown command %q\n\n%s", cmd, usage)
		return 2
	}
	if cfg.Embedded() && cmd != "serve" {
		fmt.Fprintf(stderr, "kiln: KILN_REDIS_URL: must be set for kiln %s (only kiln serve embeds Redis)\n", cmd)
		return 2
	}
	if err := app.Run(ctx, cfg, log, roles, stdout); err != nil {
		fmt.Fprintf(stderr, "kiln %s: %v\n", cmd, err)
		return 1
	}
	return 0
}

func newLogger(cfg *config.Config, w io.Writer) *slog.Logger {
	var level slog.Level
	_ = level.UnmarshalText([]byte(cfg.LogLevel))
	opts := &slog.HandlerOptions{Level: level}
	if cfg.LogFormat == "text" {
		return slog.New(slog.NewTextHandler(w, opts))
	}
	return slog.New(slog.NewJSONHandler(w, opts))
}

func printJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// errUsage marks a mistake in the command line (exit code 2).
var errUsage = errors.New("usage")
