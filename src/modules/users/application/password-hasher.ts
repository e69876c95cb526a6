import { Injectable } from '@nestjs/common';
import bcrypt from 'bcryptjs';

const COST = 10;

@Injectable()
export class PasswordHasher {
  /** A real hash to compare against when the username is unknown, so both failures take the same time. */
  private readonly decoy = bcrypt.hashSync('decoy-password-never-used', COST);

  hash(password: string): Promise<string> {
    return bcrypt.hash(password, COST);
  }

  async verify(password: string, hash: string | null): Promise<boolean> {
    if (!hash) {
      await bcrypt.compare(password, this.decoy);
      return false;
    }
    return bcrypt.compare(password, hash);
  }
}
