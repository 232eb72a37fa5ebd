// Command configs writes avatar configurations for pictures and panels:
// the two built-in avatars and n random ones (avatar.Random, the draw
// POST /avatar makes for {}), one JSON file each, named so a picture
// says which it is.
//
//	go run ./bench/avatar-look/configs -out DIR [-n 8] [-seed 1]
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"log"
	"os"
	"path/filepath"

	"github.com/kilnhq/kiln/assets/avatar"
)

func main() {
	out := flag.String("out", "", "folder to write the configurations to")
	n := flag.Int("n", 8, "how many random avatars")
	seed := flag.Int64("seed", 1, "seed of the first random avatar; the others follow it")
	flag.Parse()
	if *out == "" {
		log.Fatal("configs: -out is required")
	}
	if err := os.MkdirAll(*out, 0o755); err != nil {
		log.Fatal(err)
	}
	cfgs := map[string]avatar.Config{
		"default-male":   avatar.Default(avatar.Masculine),
		"default-female": avatar.Default(avatar.Feminine),
	}
	for i := range *n {
		cfgs[fmt.Sprintf("random-%02d", i+1)] = avatar.Random(*seed + int64(i))
	}
	for name, c := range cfgs {
		b, err := json.MarshalIndent(c, "", "  ")
		if err != nil {
			log.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(*out, name+".json"), b, 0o644); err != nil {
			log.Fatal(err)
		}
	}
}
