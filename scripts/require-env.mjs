// Fails a script early with a clear message when a needed environment variable is missing.
for (const name of process.argv.slice(2)) {
  if (!process.env[name]) {
    console.error(`${name} must be set (for example ${name}=postgres://postgres@127.0.0.1:5432/test)`);
    process.exit(1);
  }
}
