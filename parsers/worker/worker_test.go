package worker

import (
	"errors"
	"os"
	"strings"
	"testing"
	"time"
)

// The handlers of these tests, served by this test binary started as a worker.
func init() {
	Register("test.echo", func(arg []byte) ([]byte, error) { return append([]byte("echo:"), arg...), nil })
	Register("test.fail", func(arg []byte) ([]byte, error) { return nil, errors.New("bad input " + string(arg)) })
	Register("test.alloc", func([]byte) ([]byte, error) {
		var keep [][]byte
		for {
			keep = append(keep, make([]byte, 16<<20))
			for _, b := range keep[len(keep)-1:] {
				for i := 0; i < len(b); i += 4096 {
					b[i] = 1
				}
			}
		}
	})
	Register("test.spin", func([]byte) ([]byte, error) {
		for n := 0; ; n++ {
			if n < 0 {
				return nil, nil
			}
		}
	})
	Register("test.recurse", func([]byte) ([]byte, error) { return nil, errors.New(string(rune(recurse(1)))) })
	Register("test.panic", func([]byte) ([]byte, error) { panic("boom") })
	Register("test.pid", func([]byte) ([]byte, error) { return []byte(strings.Repeat("x", os.Getpid()%7+1)), nil })
}

func recurse(n int) int {
	var pad [256]byte
	pad[n%256] = byte(n)
	return recurse(n+1) + int(pad[0])
}

func TestMain(m *testing.M) {
	ServeIfWorker()
	os.Exit(m.Run())
}

var testBudget = Budget{Memory: 256 << 20, Wall: 20 * time.Second}

func TestPoolReusesWorkers(t *testing.T) {
	p := NewPool(1, testBudget)
	if p == nil {
		t.Skip("workers are not supported here")
	}
	defer p.Close()
	before := Started()
	for i := 0; i < 3; i++ {
		out, err := p.Call("test.echo", []byte("hi"), 0)
		if err != nil || string(out) != "echo:hi" {
			t.Fatalf("call %d: %q, %v", i, out, err)
		}
	}
	if n := Started() - before; n != 1 {
		t.Errorf("%d workers started for three calls, want one reused", n)
	}
	_, err := p.Call("test.fail", []byte("x"), 0)
	var ev *EvalError
	if !errors.As(err, &ev) || ev.Msg != "bad input x" {
		t.Errorf("handler error = %v, want EvalError \"bad input x\"", err)
	}
	if n := Started() - before; n != 1 {
		t.Errorf("a handler's error replaced the worker (%d started)", n)
	}
}

// TestBudgets runs each kind of runaway evaluation and checks that it is reported as
// the budget it broke, and that the pool goes on with a fresh worker.
func TestBudgets(t *testing.T) {
	p := NewPool(1, testBudget)
	if p == nil {
		t.Skip("workers are not supported here")
	}
	defer p.Close()
	for _, c := range []struct {
		handler string
		wall    time.Duration
		want    Kind
		text    string
	}{
		{"test.alloc", 0, OutOfMemory, "exceeded the memory limit of 256 MiB"},
		{"test.spin", 3 * time.Second, OutOfTime, "exceeded the time limit of 3s"},
		{"test.recurse", 0, OutOfStack, "ran out of stack"},
	} {
		_, err := p.Call(c.handler, nil, c.wall)
		var ex *Exceeded
		if !errors.As(err, &ex) || ex.Kind != c.want || !strings.Contains(err.Error(), c.text) {
			t.Errorf("%s: err = %v, want %q", c.handler, err, c.text)
		}
		before := Started()
		out, err := p.Call("test.echo", []byte("after"), 0)
		if err != nil || string(out) != "echo:after" {
			t.Errorf("%s: the next call failed: %q, %v", c.handler, out, err)
		}
		if n := Started() - before; n != 1 {
			t.Errorf("%s: %d workers started for the next call, want the dead one replaced (1)", c.handler, n)
		}
	}
	_, err := p.Call("test.panic", nil, 0)
	var ev *EvalError
	if !errors.As(err, &ev) || !strings.Contains(ev.Msg, "internal error: boom") {
		t.Errorf("panic: err = %v", err)
	}
}

// TestCPULimit checks the worker's own CPU limit, with the parent's timer out of the way.
func TestCPULimit(t *testing.T) {
	p := NewPool(1, Budget{Memory: 256 << 20, Wall: 2 * time.Second})
	if p == nil {
		t.Skip("workers are not supported here")
	}
	defer p.Close()
	w, err := start(p.budget)
	if err != nil {
		t.Fatal(err)
	}
	// A wall budget far above the CPU budget: only RLIMIT_CPU can stop the spin.
	_, _, err = w.call(request{Handler: "test.spin", CPU: 2 * time.Second}, time.Minute, p.budget)
	var ex *Exceeded
	if !errors.As(err, &ex) || ex.Kind != OutOfTime {
		t.Errorf("err = %v, want the CPU limit reported as out of time", err)
	}
}
