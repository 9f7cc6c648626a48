// (e) The one-shot signer of native-signer.mjs as a compiled Go program: what a spawn per request costs
// without Node's startup. Same wire format (see ../ops.mjs): request JSON on stdin, response JSON on stdout.
package main

import (
	"crypto/ecdh"
	"crypto/ed25519"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
)

type op struct {
	Op        string `json:"op"`
	Seed      string `json:"seed"`
	Msg       string `json:"msg"`
	SecretKey string `json:"secretKey"`
}

func seed(hexSeed string) ([]byte, error) {
	b, err := hex.DecodeString(hexSeed)
	if err == nil && len(b) != 32 {
		err = fmt.Errorf("seed must be 32 bytes, got %d", len(b))
	}
	return b, err
}

func run(o op) (map[string]string, error) {
	switch o.Op {
	case "edKeyPair":
		s, err := seed(o.Seed)
		if err != nil {
			return nil, err
		}
		pub := ed25519.NewKeyFromSeed(s).Public().(ed25519.PublicKey)
		return map[string]string{"publicKey": hex.EncodeToString(pub), "secretKey": o.Seed}, nil
	case "edSign":
		s, err := seed(o.SecretKey)
		if err != nil {
			return nil, err
		}
		msg, err := hex.DecodeString(o.Msg)
		if err != nil {
			return nil, err
		}
		return map[string]string{"signature": hex.EncodeToString(ed25519.Sign(ed25519.NewKeyFromSeed(s), msg))}, nil
	case "x25519KeyPair":
		s, err := seed(o.Seed)
		if err != nil {
			return nil, err
		}
		key, err := ecdh.X25519().NewPrivateKey(s)
		if err != nil {
			return nil, err
		}
		return map[string]string{"publicKey": hex.EncodeToString(key.PublicKey().Bytes()), "secretKey": o.Seed}, nil
	}
	return nil, fmt.Errorf("unknown op %q", o.Op)
}

func main() {
	var req struct{ Ops []op }
	if err := json.NewDecoder(os.Stdin).Decode(&req); err != nil {
		fmt.Fprintln(os.Stderr, "go-signer:", err)
		os.Exit(1)
	}
	results := make([]map[string]string, len(req.Ops))
	for i, o := range req.Ops {
		r, err := run(o)
		if err != nil {
			fmt.Fprintln(os.Stderr, "go-signer:", err)
			os.Exit(1)
		}
		results[i] = r
	}
	json.NewEncoder(os.Stdout).Encode(map[string]any{"results": results})
}
