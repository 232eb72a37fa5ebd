// Command configs writes the configurations bench/avatar-build times as
// JSON files for kiln avatar: default.json and default-female.json
// (avatar.Default of the masculine and feminine bodies) and random-N.json (avatar.Random(N)) for the seeds
// given, into the directory given.
//
//	go run ./bench/avatar-build/configs DIR 1 2 3
package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"

	"github.com/kilnhq/kiln/assets/avatar"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: configs DIR SEED...")
		os.Exit(2)
	}
	dir := os.Args[1]
	write := func(name string, cfg avatar.Config) {
		data, err := json.Marshal(cfg)
		if err == nil {
			err = os.WriteFile(filepath.Join(dir, name+".json"), data, 0o644)
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
	}
	write("default", avatar.Default(avatar.Masculine))
	write("default-female", avatar.Default(avatar.Feminine))
	for _, a := range os.Args[2:] {
		seed, err := strconv.ParseInt(a, 10, 64)
		if err != nil {
			fmt.Fprintln(os.Stderr, "configs: a seed is an integer:", a)
			os.Exit(2)
		}
		write("random-"+a, avatar.Random(seed))
	}
}
