"""Compiles every model.onnx under DIR for cuda:<sm> with --emit=asm (the kernels' PTX) and assembles
the PTX with ptxas for that SM; prints one line per SM with the number of models, and for every model
that fails, the model, the step and the first line of the error. Exits 1 if any failed.

usage: check_ptx.py MIE_COMPILE PTXAS DIR SM...
"""
import pathlib
import subprocess
import sys
import tempfile


def main():
    mie_compile, ptxas, root, sms = sys.argv[1], sys.argv[2], pathlib.Path(sys.argv[3]), sys.argv[4:]
    models = sorted(root.rglob("model.onnx"))
    failed = 0
    with tempfile.TemporaryDirectory() as tmp:
        for sm in sms:
            passed = 0
            for model in models:
                ptx, cubin = f"{tmp}/k.ptx", f"{tmp}/k.cubin"
                steps = [("mie-compile", [mie_compile, str(model), f"--target=cuda:{sm}", "--emit=asm",
                                          "-o", ptx]),
                         ("ptxas", [ptxas, f"-arch={sm}", ptx, "-o", cubin])]
                for step, argv in steps:
                    run = subprocess.run(argv, capture_output=True, text=True)
                    if run.returncode != 0:
                        first = (run.stderr.strip().splitlines() or ["(no message)"])[0]
                        print(f"FAIL {model.relative_to(root)} {sm} {step}: {first}")
                        failed += 1
                        break
                else:
                    passed += 1
            print(f"{sm}: {passed} of {len(models)} models pass ptxas")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
