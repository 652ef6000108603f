//go:build !linux

package worker

import (
	"os"
	"os/exec"
	"time"
)

// Workers need /proc/self/exe and Linux's resource limits; elsewhere evaluations run
// in-process under their in-process bounds only.
const supported = false

const selfExe = ""

func setProcAttr(*exec.Cmd) {}

func limitSelf(int64) error { return nil }

func limitCPU(time.Duration) error { return nil }

func peakMemory(*os.ProcessState) int64 { return 0 }
