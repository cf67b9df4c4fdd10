// Test harness: the line a suite's run() logs before mocha starts; the harness prints the extension
// host's output from there on (importable by suites: it pulls in nothing else).
export const suiteStartMarker = '[listwatch] extension test suite starting';
