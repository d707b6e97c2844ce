// Package graphiql serves the GraphiQL page at /graphiql/ with its scripts and styles from the
// binary, so that the first screen works with no network. The files in assets/ are the
// built files of the npm packages graphiql, react and react-dom at the versions in
// assets/MANIFEST, vendored by scripts/vendor-graphiql.sh; the page around them is ours.
package graphiql

import (
	"bufio"
	"bytes"
	"embed"
	"fmt"
	"html/template"
	"net/http"
	"path"
	"strings"

	"github.com/arbiter-games/arbiter/internal/asset"
)

// Prefix is where the assets are served.
const Prefix = "/graphiql/"

//go:embed assets
var assets embed.FS

// Asset is one vendored file, as the MANIFEST records it.
type Asset struct {
	Name    string // its name under assets/ and Prefix
	Package string // the npm package and version it comes from, "graphiql@4.1.2"
	Source  string // its path in that package
	SHA256  string // hex
}

// Manifest reads assets/MANIFEST.
func Manifest() ([]Asset, error) {
	data, err := assets.ReadFile("assets/MANIFEST")
	if err != nil {
		return nil, err
	}
	var out []Asset
	sc := bufio.NewScanner(bytes.NewReader(data))
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Fields(line)
		if len(f) != 4 {
			return nil, fmt.Errorf("assets/MANIFEST line %d: want name, package@version, path and sha256, got %q; run scripts/vendor-graphiql.sh", n, line)
		}
		out = append(out, Asset{Name: f[0], Package: f[1], Source: f[2], SHA256: f[3]})
	}
	return out, sc.Err()
}

// Handler serves the page at Prefix (with endpoint as the API's path, for queries over
// HTTP and subscriptions over a websocket on the same host) and the assets under Prefix.
// Mount it on Prefix.
func Handler(endpoint string) http.Handler {
	manifest, err := Manifest()
	if err != nil {
		panic("graphiql: " + err.Error()) // the embedded files are part of the build
	}
	served := map[string]*asset.File{}
	for _, a := range manifest {
		data, err := assets.ReadFile(path.Join("assets", a.Name))
		if err != nil {
			panic("graphiql: " + err.Error()) // the MANIFEST's files are embedded (graphiql_test.go)
		}
		served[a.Name] = asset.New(a.Name, data)
	}
	var page bytes.Buffer
	if err := pageTemplate.Execute(&page, map[string]string{"Endpoint": endpoint, "Prefix": Prefix}); err != nil {
		panic("graphiql: " + err.Error())
	}
	mux := http.NewServeMux()
	mux.HandleFunc("GET "+Prefix+"{$}", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = w.Write(page.Bytes())
	})
	mux.HandleFunc("GET "+Prefix+"{name}", func(w http.ResponseWriter, r *http.Request) {
		f, ok := served[r.PathValue("name")]
		if !ok {
			http.NotFound(w, r)
			return
		}
		// The names carry no version: a browser revalidates, and an unchanged file costs a
		// 304.
		f.Serve(w, r, "no-cache")
	})
	return mux
}

// pageTemplate loads React, ReactDOM and GraphiQL from this server, then mounts GraphiQL
// with a fetcher for the endpoint over HTTP and, for subscriptions, a websocket.
var pageTemplate = template.Must(template.New("page").Parse(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Arbiter</title>
<link rel="stylesheet" href="{{.Prefix}}graphiql.min.css">
<style>
  body { margin: 0; }
  #graphiql { height: 100vh; }
  #graphiql > .loading { display: flex; height: 100%; align-items: center; justify-content: center; font: 2rem sans-serif; }
</style>
<script src="{{.Prefix}}react.production.min.js"></script>
<script src="{{.Prefix}}react-dom.production.min.js"></script>
<script src="{{.Prefix}}graphiql.min.js"></script>
</head>
<body>
<div id="graphiql"><div class="loading">Loading…</div></div>
<script>
  const endpoint = {{.Endpoint}};
  const ws = location.protocol === "https:" ? "wss:" : "ws:";
  const fetcher = GraphiQL.createFetcher({
    url: location.origin + endpoint,
    subscriptionUrl: ws + "//" + location.host + endpoint,
  });
  ReactDOM.createRoot(document.getElementById("graphiql")).render(
    React.createElement(GraphiQL, {
      fetcher: fetcher,
      isHeadersEditorEnabled: true, // Authorization: Bearer <token>
      shouldPersistHeaders: true,
    }),
  );
</script>
</body>
</html>
`))
