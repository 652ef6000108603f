package worker

import (
	"errors"
	"os"
	"runtime"
	"runtime/metrics"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/pvlint/pvlint/parsers/gcpace"
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
	// A worker that dies of a signal, holding most of its budget or almost nothing:
	// at the memory limit the runtime sometimes dies of a refused mapping instead of
	// saying "out of memory".
	Register("test.segv.full", func([]byte) ([]byte, error) { return nil, dieHolding(200 << 20) })
	Register("test.segv", func([]byte) ([]byte, error) { return nil, dieHolding(0) })
	Register("test.typed", func(a typedArg) (typedResult, error) {
		r := typedResult{Sum: map[string]int{}, Pid: os.Getpid()}
		for _, k := range a.Keys {
			r.Sum[k] += a.N
		}
		return r, nil
	})
	// A result gob refuses (a nil element in a slice of pointers) after a good one.
	Register("test.unencodable", func(bad bool) ([]*int, error) {
		if bad {
			return []*int{nil}, nil
		}
		one := 1
		return []*int{&one}, nil
	})
	Register("test.gc", func(churn int) (gcState, error) {
		for range churn {
			sink = make([]byte, 1<<20)
		}
		sink = nil
		st := readGC()
		for i := 0; churn > 0 && st.Percent == -1 && i < 200; i++ {
			time.Sleep(10 * time.Millisecond) // the finalizer runs after the collection
			st = readGC()
		}
		return st, nil
	})
	Register("test.gc.live", func(mib int) (gcState, error) {
		hold := make([][]byte, mib)
		for i := range hold {
			hold[i] = make([]byte, 1<<20)
		}
		n := readGC().NumGC
		runtime.GC()
		for i := 0; readGC().NumGC == n && i < 200; i++ {
			time.Sleep(10 * time.Millisecond)
		}
		time.Sleep(50 * time.Millisecond) // the finalizer runs after the collection
		st := readGC()
		runtime.KeepAlive(hold)
		return st, nil
	})
	Register("test.pid", func([]byte) ([]byte, error) { return []byte(strings.Repeat("x", os.Getpid()%7+1)), nil })
}

type typedArg struct {
	Keys []string
	N    int
}

type typedResult struct {
	Sum map[string]int
	Pid int
}

var held []byte

// sink keeps the compiler from dropping test.gc's allocations.
var sink []byte

// gcState is a worker's collector settings and how many collections it ran.
type gcState struct {
	Percent int
	Limit   int64
	NumGC   uint32
	Live    int64 // the heap the last collection found live
}

// readGC reads the settings without changing them (a finalizer may be changing them).
func readGC() gcState {
	m := []metrics.Sample{{Name: "/gc/gogc:percent"}, {Name: "/gc/gomemlimit:bytes"}, {Name: "/gc/cycles/total:gc-cycles"}, {Name: "/gc/heap/live:bytes"}}
	metrics.Read(m)
	pct := int(int64(m[0].Value.Uint64())) // off is -1, read as an unsigned value
	return gcState{Percent: pct, Limit: int64(m[1].Value.Uint64()), NumGC: uint32(m[2].Value.Uint64()), Live: int64(m[3].Value.Uint64())}
}

func dieHolding(n int) error {
	held = make([]byte, n)
	for i := 0; i < len(held); i += 4096 {
		held[i] = 1
	}
	syscall.Kill(os.Getpid(), syscall.SIGSEGV)
	time.Sleep(time.Minute)
	return nil
}

// recurse never returns: the handler exists to run out of stack.
func recurse(n int) int {
	var pad [256]byte
	pad[n%256] = byte(n)
	//lint:ignore SA5007 the infinite recursion is the test
	return recurse(n+1) + int(pad[0])
}

func TestMain(m *testing.M) {
	if d, err := time.ParseDuration(os.Getenv(envSlowStart)); err == nil && Requested() {
		time.Sleep(d) // a worker's start-up on a loaded machine
	}
	ServeIfWorker()
	os.Exit(m.Run())
}

// envSlowStart makes this test binary's workers take so long to start.
const envSlowStart = "PVLINT_TEST_WORKER_START"

var testBudget = Budget{Memory: 256 << 20, Wall: 20 * time.Second}

func TestPoolReusesWorkers(t *testing.T) {
	p := NewPool(1, testBudget)
	if p == nil {
		t.Skip("workers are not supported here")
	}
	defer p.Close()
	before := Started()
	for i := range 3 {
		out, err := Call[[]byte](p, "test.echo", []byte("hi"), 0)
		if err != nil || string(out) != "echo:hi" {
			t.Fatalf("call %d: %q, %v", i, out, err)
		}
	}
	if n := Started() - before; n != 1 {
		t.Errorf("%d workers started for three calls, want one reused", n)
	}
	_, err := Call[[]byte](p, "test.fail", []byte("x"), 0)
	var ev *EvalError
	if !errors.As(err, &ev) || ev.Msg != "bad input x" {
		t.Errorf("handler error = %v, want EvalError \"bad input x\"", err)
	}
	if n := Started() - before; n != 1 {
		t.Errorf("a handler's error replaced the worker (%d started)", n)
	}
}

// TestSlowStartIsNotBusy checks that calls queued behind a prestarted worker whose
// start-up takes longer than growAfter share it instead of each starting another.
func TestSlowStartIsNotBusy(t *testing.T) {
	t.Setenv(envSlowStart, (3 * growAfter).String())
	p := NewPool(4, testBudget)
	if p == nil {
		t.Skip("workers are not supported here")
	}
	defer p.Close()
	before := Started()
	p.Prestart(1)
	var wg sync.WaitGroup
	for range 3 {
		wg.Go(func() {
			for range 5 {
				if _, err := Call[[]byte](p, "test.echo", []byte("hi"), 0); err != nil {
					t.Error(err)
				}
			}
		})
	}
	wg.Wait()
	if n := Started() - before; n != 1 {
		t.Errorf("%d workers started for quick calls queued behind a slow prestart, want 1", n)
	}
}

// TestCollectorStartsAtFloor checks that a worker does not collect until it holds
// gcpace.Floor bytes, and collects by pvlint's memory policy, under its budget's
// limit, from then on: a goal of at least the floor over a small live heap, twice the
// live heap over a large one.
func TestCollectorStartsAtFloor(t *testing.T) {
	if _, set := os.LookupEnv("GOGC"); set {
		t.Skip("GOGC is set: workers keep it")
	}
	// A budget with room for the race detector's shadow of the garbage.
	budget := Budget{Memory: 1 << 30, Wall: testBudget.Wall}
	p := NewPool(1, budget)
	if p == nil {
		t.Skip("workers are not supported here")
	}
	defer p.Close()
	st, err := Call[gcState](p, "test.gc", 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	if st.Percent != -1 || st.Limit != gcpace.Floor || st.NumGC != 0 {
		t.Errorf("a fresh worker: GOGC %d, memory limit %d, %d collections; want off, %d, none", st.Percent, st.Limit, st.NumGC, gcpace.Floor)
	}
	st, err = Call[gcState](p, "test.gc", 4*gcpace.Floor>>20, 0)
	if err != nil {
		t.Fatal(err)
	}
	// The live heap is the few MB the packages' initialisation left: the next goal is
	// gcpace.Floor, not twice that.
	if want := budget.Memory / 4 * 3; st.Percent < 100 || st.Limit != want || st.NumGC == 0 ||
		st.Live*int64(100+st.Percent)/100 < gcpace.Floor*9/10 {
		t.Errorf("after %d MiB of garbage: GOGC %d over a live heap of %d bytes, memory limit %d, %d collections; want a goal of at least %d bytes, %d, some",
			4*gcpace.Floor>>20, st.Percent, st.Live, st.Limit, st.NumGC, gcpace.Floor, want)
	}
	big, err := Call[gcState](p, "test.gc.live", 2*gcpace.Floor>>20, 0)
	if err != nil {
		t.Fatal(err)
	}
	if big.Percent != 100 {
		t.Errorf("with %d bytes live: GOGC %d, want 100", big.Live, big.Percent)
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
		{"test.segv.full", 0, OutOfMemory, "exceeded the memory limit of 256 MiB"},
		{"test.segv", 0, Crashed, "process died: SIGSEGV"},
	} {
		_, err := Call[[]byte](p, c.handler, []byte(nil), c.wall)
		var ex *Exceeded
		ok := errors.As(err, &ex) && ex.Kind == c.want && strings.Contains(err.Error(), c.text)
		// Under -race the detector's shadow of the growing stack reaches the data
		// limit before the stack reaches its own.
		ok = ok || raceDetector && c.handler == "test.recurse" && ex != nil && ex.Kind == OutOfMemory
		if !ok {
			t.Errorf("%s: err = %v, want %q", c.handler, err, c.text)
		}
		before := Started()
		out, err := Call[[]byte](p, "test.echo", []byte("after"), 0)
		if err != nil || string(out) != "echo:after" {
			t.Errorf("%s: the next call failed: %q, %v", c.handler, out, err)
		}
		if n := Started() - before; n != 1 {
			t.Errorf("%s: %d workers started for the next call, want the dead one replaced (1)", c.handler, n)
		}
	}
	_, err := Call[[]byte](p, "test.panic", []byte(nil), 0)
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
	var arg []byte
	var resp reply[[]byte]
	err = w.call(request{Handler: "test.spin", CPU: 2 * time.Second}, &arg, &resp, time.Minute, p.budget)
	var ex *Exceeded
	if !errors.As(err, &ex) || ex.Kind != OutOfTime {
		t.Errorf("err = %v, want the CPU limit reported as out of time", err)
	}
}

// TestClassify checks how a dead worker's error output is read, with the starts of
// real crash reports: the runtime faulting in its collector at the data limit (seen in
// CI with Go 1.26), a kill(2) of SIGSEGV, a Go panic, the runtime's own out-of-memory.
func TestClassify(t *testing.T) {
	b := Budget{Memory: 256 << 20}
	for _, c := range []struct {
		name string
		text string
		peak int64
		want Kind
	}{
		{"runtime fault at the limit", "SIGSEGV: segmentation violation\nPC=0x43367d m=6 sigcode=1 addr=0x0\n\ngoroutine 0 gp=0x20d9bbdb81e0 m=6 [idle]:\nruntime.(*spanQueue).tryDrain(...)", 5 << 20, OutOfMemory},
		{"unexpected signal in the runtime", "fatal error: unexpected signal during runtime execution\n[signal SIGSEGV: segmentation violation code=0x1 addr=0x0 pc=0x43367d]\n", 5 << 20, OutOfMemory},
		{"SIGSEGV sent by kill", "SIGSEGV: segmentation violation\nPC=0x490021 m=0 sigcode=0 addr=0x1cf4\n", 5 << 20, Crashed},
		{"SIGSEGV sent by kill, holding the budget", "SIGSEGV: segmentation violation\nPC=0x490021 m=0 sigcode=0 addr=0x1cf4\n", 200 << 20, OutOfMemory},
		{"killed without a word (OOM killer), holding the budget", "", 250 << 20, OutOfMemory},
		{"killed without a word", "", 5 << 20, Crashed},
		{"panic in Go code", "panic: runtime error: invalid memory address or nil pointer dereference\n[signal SIGSEGV: segmentation violation code=0x1 addr=0x0 pc=0x1]\n", 5 << 20, Crashed},
		{"runtime out of memory", "fatal error: out of memory\n", 5 << 20, OutOfMemory},
		{"stack", "runtime: goroutine stack exceeds 67108864-byte limit\nfatal error: stack overflow", 5 << 20, OutOfStack},
		{"cpu", cpuExceeded + "\n", 5 << 20, OutOfTime},
		{"race detector's shadow", "==26323==ERROR: ThreadSanitizer failed to allocate 0x20000000 (536870912) bytes at address 218008000000 (errno: 12)\n", 5 << 20, OutOfMemory},
	} {
		if got := classify(c.text, c.peak, b); got.Kind != c.want {
			t.Errorf("%s: kind %d (%v), want %d", c.name, got.Kind, got, c.want)
		}
	}
	if got := classify("SIGSEGV: segmentation violation\nPC=0x1 m=0 sigcode=1 addr=0x0\n", 0, Budget{}); got.Kind != Crashed || got.Detail != "SIGSEGV: segmentation violation" {
		t.Errorf("without a memory budget a fault is a crash with its first line: %#v", got)
	}
}

// TestTypedCalls sends structured arguments and results through one worker several
// times: each reply holds only its own call's values (a reused stream must not merge
// one call's map into the next), and the worker is the same one throughout.
func TestTypedCalls(t *testing.T) {
	p := NewPool(1, testBudget)
	if p == nil {
		t.Skip("workers are not supported here")
	}
	defer p.Close()
	before := Started()
	pid := 0
	for i, keys := range [][]string{{"a", "b", "a"}, {"c"}, nil} {
		r, err := Call[typedResult](p, "test.typed", typedArg{Keys: keys, N: i + 1}, 0)
		if err != nil {
			t.Fatalf("call %d: %v", i, err)
		}
		want := map[string]int{}
		for _, k := range keys {
			want[k] += i + 1
		}
		if len(r.Sum) != len(want) {
			t.Errorf("call %d: %v, want %v", i, r.Sum, want)
		}
		for k, v := range want {
			if r.Sum[k] != v {
				t.Errorf("call %d: %v, want %v", i, r.Sum, want)
			}
		}
		if pid != 0 && r.Pid != pid {
			t.Errorf("call %d ran in worker %d, want %d reused", i, r.Pid, pid)
		}
		pid = r.Pid
	}
	if n := Started() - before; n != 1 {
		t.Errorf("%d workers started, want 1", n)
	}
}

// TestProtocolFailures checks the calls that leave a worker's streams unusable: a
// result gob cannot encode, an argument of the wrong type and an unknown handler are
// each an EvalError, the worker is replaced, and the next call works.
func TestProtocolFailures(t *testing.T) {
	p := NewPool(1, testBudget)
	if p == nil {
		t.Skip("workers are not supported here")
	}
	defer p.Close()
	check := func(name, want string, err error) {
		t.Helper()
		var ev *EvalError
		if !errors.As(err, &ev) || !strings.Contains(ev.Msg, want) {
			t.Errorf("%s: err = %v, want an EvalError with %q", name, err, want)
		}
		before := Started()
		if r, err := Call[[]*int](p, "test.unencodable", false, 0); err != nil || len(r) != 1 || *r[0] != 1 {
			t.Errorf("%s: the next call failed: %v, %v", name, r, err)
		}
		if n := Started() - before; n != 1 {
			t.Errorf("%s: %d workers started for the next call, want the retired one replaced (1)", name, n)
		}
	}
	_, err := Call[[]*int](p, "test.unencodable", true, 0)
	check("unencodable result", "unencodable worker result", err)
	_, err = Call[[]*int](p, "test.unencodable", "not a bool", 0)
	check("argument of another type", "undecodable worker argument", err)
	_, err = Call[[]byte](p, "test.none", []byte("x"), 0)
	check("unknown handler", "no worker handler test.none", err)
	// An argument the parent cannot encode is refused before anything is sent.
	if _, err := Call[[]byte](p, "test.echo", []*int{nil}, 0); err == nil || !strings.Contains(err.Error(), "cannot encode a worker request") {
		t.Errorf("unencodable argument: err = %v", err)
	}
	if out, err := Call[[]byte](p, "test.echo", []byte("after"), 0); err != nil || string(out) != "echo:after" {
		t.Errorf("after an unencodable argument: %q, %v", out, err)
	}
}
