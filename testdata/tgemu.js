// Starts telegram-test-api (a Bot API emulator) for the end-to-end tests.
// Usage: node testdata/tgemu.js PORT   (NODE_PATH must reach the installed package)
// Prints "READY <port>" once it listens; exits when its stdin closes, so it never outlives the test.
const TelegramServer = require('telegram-test-api');
const port = parseInt(process.argv[2], 10);
const server = new TelegramServer({ port, host: '127.0.0.1', storeTimeout: 600 });
server.start().then(() => console.log('READY ' + port));
process.stdin.on('end', () => server.stop().then(() => process.exit(0)));
process.stdin.resume();
