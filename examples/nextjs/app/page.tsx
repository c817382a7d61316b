import { LoginButton } from './login-button';

export default function Home() {
  return (
    <>
      <p>Sign up or log in with an email code, a passkey, Google and more; a wallet comes with it.</p>
      <LoginButton />
    </>
  );
}
