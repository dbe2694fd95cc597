// mie-sign: Ed25519 keys and package signatures (docs/security.md).
//   mie-sign keygen --out NAME                      writes NAME.key (secret, 0600) and NAME.pub
//   mie-sign sign PKG --key NAME.key [-o OUT]        signs PKG (in place unless -o), replacing any signature
//   mie-sign verify PKG --pub NAME.pub [--pub ...]   checks PKG as a loader requiring one of these keys would
// Exit code 0 on success, 1 on any error ("mie-sign: error: ..." on stderr), 2 on a usage error.
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "mie/mie_rt.h"
#include "mie/mie_signing.h"
#include "core/package.h"
#include "core/signature.h"

namespace {

const char kUsage[] =
    "usage: mie-sign keygen --out NAME\n"
    "       mie-sign sign PKG --key NAME.key [-o OUT]\n"
    "       mie-sign verify PKG --pub NAME.pub [--pub NAME2.pub ...]\n"
    "       mie-sign --version\n"
    "  keygen  write a new Ed25519 key pair: NAME.key (the secret key, mode 0600) and NAME.pub; never\n"
    "          overwrites an existing file\n"
    "  sign    validate PKG and sign it with the secret key, replacing any earlier signature; the signed\n"
    "          package is written atomically to OUT (default: PKG itself)\n"
    "  verify  validate PKG and check that it is signed by one of the given public keys, as\n"
    "          `mie-run --trusted-key NAME.pub --require-signature` would\n";

int fail(const std::string &message) {
  std::fprintf(stderr, "mie-sign: error: %s\n", message.c_str());
  return 1;
}

int usage(const std::string &message) {
  std::fprintf(stderr, "mie-sign: error: %s\n%s", message.c_str(), kUsage);
  return 2;
}

struct Args {
  std::vector<std::string> positional;
  std::string out, key;
  std::vector<std::string> pubs;
};

// --opt VALUE and --opt=VALUE; every option takes a value.
bool parse(int argc, char **argv, Args *a, std::string *error) {
  for (int i = 2; i < argc; ++i) {
    std::string arg = argv[i], value;
    if (arg.size() > 1 && arg[0] == '-') {
      const size_t eq = arg.find('=');
      if (arg.rfind("--", 0) == 0 && eq != std::string::npos) {
        value = arg.substr(eq + 1);
        arg = arg.substr(0, eq);
      } else if (i + 1 < argc) {
        value = argv[++i];
      } else {
        *error = arg + " needs a value";
        return false;
      }
      if (value.empty()) {
        *error = arg + " needs a non-empty value";
        return false;
      }
      if (arg == "--out" || arg == "-o") {
        a->out = value;
      } else if (arg == "--key") {
        a->key = value;
      } else if (arg == "--pub") {
        a->pubs.push_back(value);
      } else {
        *error = "unknown option '" + arg + "'";
        return false;
      }
    } else {
      a->positional.push_back(arg);
    }
  }
  return true;
}

int keygen(const Args &a) {
  if (!a.positional.empty() || !a.key.empty() || !a.pubs.empty()) return usage("keygen takes --out NAME only");
  if (a.out.empty()) return usage("keygen needs --out NAME");
  if (std::string e = mie::generate_key_files(a.out); !e.empty()) return fail(e);
  std::printf("wrote %s.key (secret: keep it private) and %s.pub\n", a.out.c_str(), a.out.c_str());
  return 0;
}

int sign(const Args &a) {
  if (a.positional.size() != 1 || !a.pubs.empty()) return usage("sign takes one package and --key NAME.key");
  if (a.key.empty()) return usage("sign needs --key NAME.key");
  mie::SigningKey key;
  if (std::string e = mie::read_signing_key(a.key, &key); !e.empty()) return fail(e);
  const std::string &in = a.positional[0];
  const std::string out = a.out.empty() ? in : a.out;
  if (std::string e = mie::sign_package_file(in, out, key); !e.empty()) return fail(e);
  mie::rt::PublicKey pub;
  std::memcpy(pub.data(), key.public_key(), pub.size());
  std::printf("signed '%s' with key %s\n", out.c_str(), mie::rt::key_id(pub).c_str());
  return 0;
}

int verify(const Args &a) {
  if (a.positional.size() != 1 || !a.key.empty() || !a.out.empty())
    return usage("verify takes one package and --pub NAME.pub");
  if (a.pubs.empty()) return usage("verify needs at least one --pub NAME.pub");
  mie::rt::SignaturePolicy policy;
  policy.require = true;
  for (const std::string &path : a.pubs) {
    mie::rt::PublicKey key;
    std::string error;
    if (mie::rt::read_public_key_file(path, &key, &error) != MIE_OK) return fail(error);
    policy.trusted_keys.push_back(key);
  }
  std::shared_ptr<const mie::rt::Package> package;
  std::string error;
  if (mie::rt::Package::open(a.positional[0], policy, &package, &error) != MIE_OK) return fail(error);
  std::printf("package '%s': signed by trusted key %s; header, manifest and every section check out\n",
              a.positional[0].c_str(), mie::rt::key_id(package->signature().key).c_str());
  return 0;
}

}  // namespace

int main(int argc, char **argv) {
  if (argc < 2) return usage("no command given");
  const std::string command = argv[1];
  if (command == "--help" || command == "-h" || command == "help") {
    std::fputs(kUsage, stdout);
    return 0;
  }
  if (command == "--version") {
    std::printf("mie-sign %s\n", MIE_RT_VERSION_STRING);
    return 0;
  }
  Args args;
  std::string error;
  if (!parse(argc, argv, &args, &error)) return usage(error);
  if (command == "keygen") return keygen(args);
  if (command == "sign") return sign(args);
  if (command == "verify") return verify(args);
  return usage("unknown command '" + command + "'");
}
