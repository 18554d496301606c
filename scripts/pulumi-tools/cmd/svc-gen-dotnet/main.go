// Command svc-gen-dotnet writes the .NET SDK of a package schema:
//
//	svc-gen-dotnet <schema.json> <out dir>
//
// `pulumi package gen-sdk --language dotnet` hands generation to the .NET language host
// (pulumi-language-dotnet, from the pulumi-dotnet repository), whose Go module the module proxy
// here does not serve. This calls the .NET code generator of the pinned pkg/v3 module instead,
// the same library `pulumi` v3.163.0 was built from; scripts/sdks.sh runs it for sdk/dotnet.
package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"io"
	"net/http"
	"os"
	"path/filepath"

	"github.com/pulumi/pulumi/pkg/v3/codegen/dotnet"
	"github.com/pulumi/pulumi/pkg/v3/codegen/schema"
)

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: svc-gen-dotnet <schema.json> <out dir>")
		os.Exit(2)
	}
	if err := generate(os.Args[1], os.Args[2]); err != nil {
		fmt.Fprintf(os.Stderr, "svc-gen-dotnet: %v\n", err)
		os.Exit(1)
	}
}

// noNetwork answers the one request the .NET generator makes, for the NuGet package's icon
// (logo.png; Pulumi's own from GitHub when the schema names no logoUrl, as ours does not), with a
// plain 64x64 image made here, and refuses any other: generation stays offline and repeatable.
type noNetwork struct{}

func (noNetwork) RoundTrip(req *http.Request) (*http.Response, error) {
	if filepath.Ext(req.URL.Path) != ".png" {
		return nil, fmt.Errorf("svc-gen-dotnet makes no network requests (%s)", req.URL)
	}
	img := image.NewRGBA(image.Rect(0, 0, 64, 64))
	for x := 0; x < 64; x++ {
		for y := 0; y < 64; y++ {
			img.Set(x, y, color.RGBA{R: 0x4d, G: 0x5b, B: 0xd9, A: 0xff})
		}
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		return nil, err
	}
	return &http.Response{StatusCode: http.StatusOK, Body: io.NopCloser(&buf), Request: req, Header: http.Header{}}, nil
}

func generate(schemaPath, out string) error {
	http.DefaultTransport = noNetwork{}
	http.DefaultClient.Transport = noNetwork{}
	raw, err := os.ReadFile(schemaPath)
	if err != nil {
		return err
	}
	var spec schema.PackageSpec
	if err := json.Unmarshal(raw, &spec); err != nil {
		return fmt.Errorf("%s: %w", schemaPath, err)
	}
	pkg, err := schema.ImportSpec(spec, map[string]schema.Language{"csharp": dotnet.Importer})
	if err != nil {
		return err
	}
	files, err := dotnet.GeneratePackage("svc-gen-dotnet", pkg, nil, nil)
	if err != nil {
		return err
	}
	// Like gen-sdk: the directory holds exactly what was generated.
	if err := os.RemoveAll(out); err != nil {
		return err
	}
	for name, data := range files {
		target := filepath.Join(out, name)
		if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(target, data, 0o644); err != nil {
			return err
		}
	}
	return nil
}
