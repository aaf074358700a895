// Package enginetest starts this repository's engine for the Go tests: `splendor-engine serve` from the
// project's virtual environment (SPLENDOR_VENV, else <repository>/.venv) on a free loopback port, stopped
// when the test ends. The port is read from the server's `server_started` log line.
package enginetest

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

const startupTimeout = 60 * time.Second

// RepoDir is the repository's root directory.
func RepoDir() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Clean(filepath.Join(filepath.Dir(file), "..", "..", "..", ".."))
}

// VenvDir is the virtual environment the engine runs from.
func VenvDir() string {
	if venv := os.Getenv("SPLENDOR_VENV"); venv != "" {
		return venv
	}
	return filepath.Join(RepoDir(), ".venv")
}

// Start runs the engine on a free loopback port (HTTP and metrics off) until the test ends and returns its
// gRPC address.
func Start(t testing.TB) string {
	t.Helper()
	address, stop, err := Serve()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(stop)
	return address
}

// Serve runs the engine on a free loopback port (for a TestMain sharing one among a package's tests): its
// gRPC address, and the function that stops it.
func Serve() (string, func(), error) {
	// Every listener on a free loopback port, or off: parallel test packages each run one.
	args := []string{"serve", "--address", "127.0.0.1:0", "--http-address=", "--metrics-port", "0", "--grace-seconds", "0", "--log-format", "json"}
	return run(exec.Command(filepath.Join(VenvDir(), "bin", "splendor-engine"), args...))
}

// StartPlantedFault runs conformance/planted_fault.py (the engine with one planted fault) until the test ends
// and returns its gRPC address.
func StartPlantedFault(t testing.TB, fault string) string {
	t.Helper()
	command := exec.Command(filepath.Join(VenvDir(), "bin", "python"), "-m", "conformance.planted_fault", "--fault", fault)
	command.Dir = RepoDir()
	address, stop, err := run(command)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(stop)
	return address
}

func run(command *exec.Cmd) (string, func(), error) {
	command.Env = withoutServerSettings(os.Environ())
	stdout, err := command.StdoutPipe()
	if err != nil {
		return "", nil, err
	}
	output := &lockedBuilder{}
	command.Stderr = output
	if err := command.Start(); err != nil {
		return "", nil, fmt.Errorf("starting %s: %w", command.Path, err)
	}
	stop := func() {
		_ = command.Process.Signal(syscall.SIGTERM)
		_ = command.Wait()
	}
	ports := make(chan int, 1)
	go readPort(stdout, ports, output)
	select {
	case port, ok := <-ports:
		if ok {
			return fmt.Sprintf("127.0.0.1:%d", port), stop, nil
		}
		stop()
		return "", nil, fmt.Errorf("%s exited without a server_started line:\n%s", command.Path, output.String())
	case <-time.After(startupTimeout):
		stop()
		return "", nil, fmt.Errorf("%s: no server_started line within %s:\n%s", command.Path, startupTimeout, output.String())
	}
}

// readPort sends the port of the first server_started line, then reads and drops the rest of the log so the
// pipe never fills; it closes ports when the log ends without one.
func readPort(log io.Reader, ports chan<- int, output io.Writer) {
	lines := bufio.NewScanner(log)
	lines.Buffer(make([]byte, 1<<16), 1<<20)
	sent := false
	for lines.Scan() {
		if !sent {
			_, _ = fmt.Fprintln(output, lines.Text()) // kept to explain a failed start
		}
		var record struct {
			Event string `json:"event"`
			Port  int    `json:"port"`
		}
		if !sent && json.Unmarshal(lines.Bytes(), &record) == nil && record.Event == "server_started" && record.Port > 0 {
			ports <- record.Port
			sent = true
		}
	}
	if !sent {
		close(ports)
	}
}

// withoutServerSettings drops SPLENDOR_* variables, which would override the server's flags.
func withoutServerSettings(environ []string) []string {
	kept := environ[:0:0]
	for _, variable := range environ {
		if !strings.HasPrefix(variable, "SPLENDOR_") {
			kept = append(kept, variable)
		}
	}
	return kept
}

// lockedBuilder collects a process's output from two goroutines (its stdout reader and its stderr copier).
type lockedBuilder struct {
	mu   sync.Mutex
	text strings.Builder
}

func (b *lockedBuilder) Write(data []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.text.Write(data)
}

func (b *lockedBuilder) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.text.String()
}
