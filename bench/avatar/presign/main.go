// Command presign prints a presigned GET URL of one object in MinIO, so
// that wrk can stream the same file straight from MinIO as the baseline.
package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"time"

	"github.com/minio/minio-go/v7"
	"github.com/minio/minio-go/v7/pkg/credentials"
)

func main() {
	endpoint := flag.String("endpoint", "", "host:port")
	access := flag.String("access", "", "access key")
	secret := flag.String("secret", "", "secret key")
	bucket := flag.String("bucket", "kiln", "bucket")
	prefix := flag.String("prefix", "", "key prefix; the first object under it is signed")
	flag.Parse()
	c, err := minio.New(*endpoint, &minio.Options{Creds: credentials.NewStaticV4(*access, *secret, "")})
	if err != nil {
		log.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel() // stops the listing after the first object
	obj, ok := <-c.ListObjects(ctx, *bucket, minio.ListObjectsOptions{Prefix: *prefix, Recursive: true})
	if !ok {
		log.Fatalf("no object under %s", *prefix)
	}
	if obj.Err != nil {
		log.Fatal(obj.Err)
	}
	u, err := c.PresignedGetObject(ctx, *bucket, obj.Key, time.Hour, nil)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(u.String())
}
