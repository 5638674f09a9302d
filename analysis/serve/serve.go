// Package serve is `report serve`: a local web page over a results
// directory (jobs, summary and series Parquet files of `replay run`) or a
// sweep dataset, both read by analysis/results.
//
// The page shows the summary table of an experiment (sortable), its
// metric-vs-load curves with confidence intervals for the pairs chosen,
// per-job CDFs of wait, response and bounded slowdown, and a replay view
// that animates the machine's occupancy over time (a processor strip for
// flat machines, the W×H grid for meshes, node addresses for hypercubes)
// beside the queue length. The page is static HTML, CSS and JavaScript
// embedded in the binary (static/), drawing with SVG and canvas, and it
// fetches JSON from the server only (/api/info, /api/summary,
// /api/curves, /api/cdf, /api/replay): no request leaves the machine,
// which the Content-Security-Policy header enforces.
//
// By default the server listens on loopback only and answers only
// requests addressed to a loopback host name (a guard against DNS
// rebinding); Options.Public lifts both.
package serve

import (
	"context"
	"embed"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/http"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/schedlab/schedlab/analysis/results"
	_ "github.com/schedlab/schedlab/model/catalog" // the machine families (policy.RegisterFamily), which read the results' machines
)

// DefaultAddr is the address the server listens on by default.
const DefaultAddr = "127.0.0.1:8080"

// Options configures a server.
type Options struct {
	Addr   string    // HOST:PORT to listen on (DefaultAddr when empty; port 0 picks a free one)
	Public bool      // allow a non-loopback Addr and any Host header
	Level  float64   // confidence level of the intervals (0.95 when 0)
	Log    io.Writer // where the URL and errors are written (nil: nowhere)

	// CacheBytes bounds the memory of the runs prepared for the replay
	// view, least recently used evicted first (DefaultCacheBytes when 0).
	CacheBytes int64
}

//go:embed static
var staticFS embed.FS

// CheckAddr checks a listen address: HOST:PORT with a numeric port, and,
// unless public, a loopback host (127.0.0.0/8, ::1 or localhost). An
// empty host means every interface and is refused without public.
func CheckAddr(addr string, public bool) error {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("--addr %q: want HOST:PORT, e.g. %s", addr, DefaultAddr)
	}
	if _, err := strconv.ParseUint(port, 10, 16); err != nil {
		return fmt.Errorf("--addr %q: port %q is not a number from 0 to 65535", addr, port)
	}
	if public || loopbackHost(host) {
		return nil
	}
	what := fmt.Sprintf("host %q is not a loopback address", host)
	if host == "" {
		what = "an empty host listens on every interface"
	}
	return fmt.Errorf("--addr %s: %s; report serve listens on loopback only (127.0.0.1, ::1 or localhost) unless --public is given, because anyone who can reach the address can read the results", addr, what)
}

// loopbackHost reports whether host (no port) names the local machine
// only.
func loopbackHost(host string) bool {
	host = strings.TrimSuffix(strings.TrimPrefix(host, "["), "]")
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// Handler returns the HTTP handler of a server over set: the page at /,
// its assets under /static/ and the JSON API under /api/.
func Handler(set *results.Set, o Options) (http.Handler, error) {
	d, err := newData(set, o)
	if err != nil {
		return nil, err
	}
	sub, err := fs.Sub(staticFS, "static")
	if err != nil {
		return nil, err
	}
	mux := http.NewServeMux()
	files := http.FileServer(http.FS(sub))
	mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, r *http.Request) {
		http.ServeFileFS(w, r, sub, "index.html")
	})
	mux.Handle("GET /static/", http.StripPrefix("/static/", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// A name no file can have (invalid UTF-8, "..", an empty
		// element) is not found: the file server would call it a
		// server error.
		if p := strings.TrimSuffix(r.URL.Path, "/"); p != "" && (!utf8.ValidString(p) || !fs.ValidPath(p)) {
			http.NotFound(w, r)
			return
		}
		files.ServeHTTP(w, r)
	})))
	mux.HandleFunc("GET /api/info", d.api(d.info))
	mux.HandleFunc("GET /api/summary", d.api(d.summary))
	mux.HandleFunc("GET /api/curves", d.api(d.curves))
	mux.HandleFunc("GET /api/cdf", d.api(d.cdf))
	mux.HandleFunc("GET /api/replay", d.api(d.replay))
	return guard(mux, o.Public), nil
}

// guard adds the security headers and, unless public, refuses requests
// whose Host is not a loopback name (a page on another site could
// otherwise reach the server through DNS rebinding).
func guard(h http.Handler, public bool) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !public {
			host := r.Host
			if hh, _, err := net.SplitHostPort(host); err == nil {
				host = hh
			}
			if !loopbackHost(host) {
				http.Error(w, fmt.Sprintf("host %q refused: the server answers loopback names only (start it with --public to change that)", r.Host), http.StatusForbidden)
				return
			}
		}
		hd := w.Header()
		hd.Set("Content-Security-Policy", "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; connect-src 'self'; frame-ancestors 'none'")
		hd.Set("X-Content-Type-Options", "nosniff")
		hd.Set("Referrer-Policy", "no-referrer")
		h.ServeHTTP(w, r)
	})
}

// Run loads the results in dir and serves them on o.Addr until ctx is
// done. It writes the page's URL to o.Log once listening.
func Run(ctx context.Context, dir string, o Options) error {
	if o.Addr == "" {
		o.Addr = DefaultAddr
	}
	if err := CheckAddr(o.Addr, o.Public); err != nil {
		return err
	}
	set, err := results.LoadWith(dir, results.LoadOptions{Stream: true})
	if err != nil {
		return err
	}
	h, err := Handler(set, o)
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", o.Addr)
	if err != nil {
		return fmt.Errorf("--addr %s: %w", o.Addr, err)
	}
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}
	if o.Log != nil {
		fmt.Fprintf(o.Log, "serving %s on http://%s/ (Ctrl-C to stop)\n", dir, ln.Addr())
	}
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
		sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := srv.Shutdown(sctx); err != nil {
			return err
		}
		if err := <-done; !errors.Is(err, http.ErrServerClosed) {
			return err
		}
		return nil
	}
}
