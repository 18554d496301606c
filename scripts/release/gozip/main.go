// Writes a directory as a Go module zip (the format the module proxy serves and `go mod download`
// verifies), with golang.org/x/mod/zip, the Go team's implementation of that format: the same
// exclusions (vendor/, nested modules, files that are not allowed) and checks as the go command.
//
//	go run . <module dir> <module path> <version> <out.zip>
package main

import (
	"fmt"
	"os"

	"golang.org/x/mod/module"
	modzip "golang.org/x/mod/zip"
)

func main() {
	if len(os.Args) != 5 {
		fmt.Fprintln(os.Stderr, "usage: gozip <module dir> <module path> <version> <out.zip>")
		os.Exit(2)
	}
	dir, path, version, out := os.Args[1], os.Args[2], os.Args[3], os.Args[4]
	f, err := os.Create(out)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	if err := modzip.CreateFromDir(f, module.Version{Path: path, Version: version}, dir); err != nil {
		f.Close()
		os.Remove(out)
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	if err := f.Close(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
