"""Compiles every model.onnx under DIR for cuda:<sm> with --emit=asm (the kernels' PTX) and assembles
the PTX with ptxas for that SM; prints one line per SM with the number of models, and for every model
that fails, the model, the step and the first line of the error. Exits 1 if any failed.

usage: check_ptx.py [--compile-flag=FLAG]... MIE_COMPILE PTXAS DIR SM...

--compile-flag adds FLAG to every mie-compile command (e.g. --cuda-libraries=none). A model all of whose
work goes to the GPU libraries has no kernels: its PTX is empty and passes without ptxas. A model the
compiler refuses for cuda by name ("... (cpu targets only)": control flow, data-dependent output shapes)
has no PTX to check: it is listed as CPU-ONLY and left out of the count.
"""
import pathlib
import subprocess
import sys
import tempfile


def main():
    args = sys.argv[1:]
    flags = [a.split("=", 1)[1] for a in args if a.startswith("--compile-flag=")]
    args = [a for a in args if not a.startswith("--compile-flag=")]
    mie_compile, ptxas, root, sms = args[0], args[1], pathlib.Path(args[2]), args[3:]
    models = sorted(root.rglob("model.onnx"))
    failed = 0
    with tempfile.TemporaryDirectory() as tmp:
        for sm in sms:
            passed = cpu_only = 0
            for model in models:
                ptx, cubin = f"{tmp}/k.ptx", f"{tmp}/k.cubin"
                steps = [("mie-compile", [mie_compile, str(model), f"--target=cuda:{sm}", "--emit=asm",
                                          "-o", ptx, *flags]),
                         ("ptxas", [ptxas, f"-arch={sm}", ptx, "-o", cubin])]
                for step, argv in steps:
                    if step == "ptxas" and pathlib.Path(ptx).stat().st_size == 0:
                        continue  # no kernels: everything is a library call
                    run = subprocess.run(argv, capture_output=True, text=True)
                    if run.returncode != 0 and step == "mie-compile" and "(cpu targets only)" in run.stderr:
                        refusal = next(l for l in run.stderr.splitlines() if "(cpu targets only)" in l)
                        print(f"CPU-ONLY {model.relative_to(root)} {sm}: {refusal.split('error: ', 1)[-1]}")
                        cpu_only += 1
                        break
                    if run.returncode != 0:
                        first = (run.stderr.strip().splitlines() or ["(no message)"])[0]
                        print(f"FAIL {model.relative_to(root)} {sm} {step}: {first}")
                        failed += 1
                        break
                else:
                    passed += 1
            refused = f" ({cpu_only} refused for cuda by name)" if cpu_only else ""
            print(f"{sm}: {passed} of {len(models) - cpu_only} models pass ptxas{refused}")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
